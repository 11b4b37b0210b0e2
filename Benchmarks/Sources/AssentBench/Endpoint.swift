import Glibc

/// Where the server listens: parsed from `--url http://HOST:PORT[/prefix]` and
/// resolved once, before any thread starts.
struct Endpoint: Sendable, CustomStringConvertible {
    /// Host as written in the URL (IPv6 without brackets).
    let host: String
    let port: UInt16
    /// Path prefix put before every scenario path (`""` for `http://host:port`).
    let basePath: String
    /// Value of the `Host` header.
    let hostHeader: String
    /// The resolved socket address, as raw `sockaddr` bytes.
    let address: [UInt8]
    let family: Int32

    var description: String { "http://\(hostHeader)\(basePath)" }

    /// Parses and resolves `url`. Only plain `http://` is supported.
    static func resolve(_ url: String) throws(BenchError) -> Endpoint {
        let parts = try parse(url)
        let address = try lookUp(host: parts.host, port: parts.port)
        return Endpoint(
            host: parts.host, port: parts.port, basePath: parts.basePath,
            hostHeader: parts.hostHeader, address: address.bytes, family: address.family)
    }

    struct Parts: Equatable {
        var host: String
        var port: UInt16
        var basePath: String
        var hostHeader: String
    }

    /// Splits `http://HOST[:PORT][/prefix]`; the URL is never echoed back (it could hold credentials).
    static func parse(_ url: String) throws(BenchError) -> Parts {
        let scheme = "http://"
        guard url.lowercased().hasPrefix(scheme) else {
            if url.lowercased().hasPrefix("https://") {
                throw .usage("--url: https is not supported; benchmark the server over plain http on loopback")
            }
            throw .usage("--url must look like http://127.0.0.1:PORT")
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count))
        if path.contains("?") || path.contains("#") {
            throw .usage("--url must not carry a query or fragment")
        }
        while path.hasSuffix("/") { path.removeLast() }
        guard !authority.contains("@") else {
            throw .usage("--url must not carry credentials; pass the secret key with --secret or ASSENT_BENCH_SECRET")
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .usage("--url: unterminated IPv6 address") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .usage("--url: expected ':' after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw .usage("--url has no host") }
        var port: UInt16 = 80
        if let portText {
            guard let parsed = UInt16(portText), parsed > 0 else { throw .usage("--url has an invalid port") }
            port = parsed
        }
        let hostHeader = authority.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return Parts(host: String(host), port: port, basePath: path, hostHeader: hostHeader)
    }

    private static func lookUp(host: String, port: UInt16) throws(BenchError) -> (bytes: [UInt8], family: Int32) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let message = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw BenchError(.unreachable, label: "unreachable", reason: "cannot resolve \(host): \(message)")
        }
        defer { freeaddrinfo(list) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        return (bytes, first.pointee.ai_family)
    }
}
