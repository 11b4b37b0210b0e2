import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A parsed HTTP/1.1 response read off a raw socket.
struct RawResponse: Sendable {
    var status: Int
    var reason: String
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking TCP client for exact bytes on the wire. Use it from ``onThread(_:)``
/// so blocking calls do not hold the test's cooperative threads.
final class RawConnection: @unchecked Sendable {
    private(set) var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` (or [::1]:`port`); throws with the errno on failure (e.g. ECONNREFUSED).
    init(port: Int, timeoutSeconds: Int = 30, ipv6: Bool = false) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            fd = -1  // a class whose init throws still runs deinit: never close twice
            throw ConnectError(errno: code)
        }
    }

    struct ConnectError: Error { let errno: Int32 }

    func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawHTTPError(description: "send: errno \(errno)") }
            offset += n
        }
    }

    /// Reads more bytes into the buffer; returns false at EOF (or reset).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 || errno == ECONNRESET { return false }
        throw RawHTTPError(description: "recv: errno \(errno)")
    }

    /// Reads one response (Content-Length delimited, or up to EOF).
    func readResponse() throws -> RawResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.firstRange(of: separator)?.lowerBound
            if headEnd == nil, try !fill() { throw RawHTTPError(description: "connection closed before a response head (\(buffer.count) bytes)") }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError(description: "bad status line: \(head)") }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "", headers: headers, body: [])
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                if try !fill() { throw RawHTTPError(description: "closed after \(buffer.count) of \(length) body bytes") }
            }
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Waits for the server to close the connection; returns the bytes received meanwhile.
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }
}

/// Runs blocking work on its own thread and awaits the result.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Sends `request` on a new connection and reads one response.
func rawRequest(port: Int, _ request: String) async throws -> RawResponse {
    try await onThread {
        let connection = try RawConnection(port: port)
        try connection.send(request)
        return try connection.readResponse()
    }
}

/// A GET request with `Connection: close` and optional extra header lines.
func get(_ target: String, headers: [String] = []) -> String {
    "GET \(target) HTTP/1.1\r\nHost: test\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n"
}
