#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The networks of reverse proxies (load balancers) whose `X-Forwarded-For` is believed, so the client address a
/// request carries is the real client's and not the proxy's.
///
/// Only when the connection's peer is inside a trusted network is `X-Forwarded-For` read, from the right (every
/// proxy appends the address it received the request from): trusted addresses are skipped, and the first one that is
/// not trusted is the client. Whatever a client put to the left of that is never believed. An entry that is not an IP
/// address ends the walk at the last trusted hop. Without trusted networks, or from any other peer, the header is
/// ignored and the peer is the client.
package struct TrustedProxies: Sendable, Hashable {
    /// An IPv4 or IPv6 network: an address and a prefix length (`10.0.0.0/8`, `::1/128`; a bare address is `/32`
    /// or `/128`).
    package struct Network: Sendable, Hashable, CustomStringConvertible {
        /// The address's bytes (4 or 16), with the bits past the prefix cleared.
        package let bytes: [UInt8]
        /// Leading bits that must match.
        package let prefixLength: Int

        /// Reads `ADDRESS[/PREFIX]`; nil when it is not one.
        package init?(cidr text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = TrustedProxies.addressBytes(String(parts[0])) else { return nil }
            let bits = address.count * 8
            var prefix = bits
            if parts.count == 2 {
                guard let value = Int(parts[1]), (0...bits).contains(value) else { return nil }
                prefix = value
            }
            prefixLength = prefix
            bytes = address.enumerated().map { index, byte in
                let kept = min(8, max(0, prefix - index * 8))
                return kept == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
            }
        }

        /// Whether `address` (4 or 16 bytes) is inside this network.
        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for index in bytes.indices {
                let kept = min(8, max(0, prefixLength - index * 8))
                guard kept > 0 else { return true }
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
                if address[index] & mask != bytes[index] { return false }
            }
            return true
        }

        /// `ADDRESS/PREFIX`.
        package var description: String { "\(TrustedProxies.canonical(bytes))/\(prefixLength)" }
    }

    /// The trusted networks; empty trusts nobody.
    package var networks: [Network]

    /// Trusts `networks`.
    package init(_ networks: [Network] = []) { self.networks = networks }

    /// The client's address for a connection from `peer` carrying the `X-Forwarded-For` fields `forwardedFor` (every
    /// field's value, in order).
    package func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard isTrusted(peer) else { return peer }
        var client = peer
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { String($0.filter { $0 != " " && $0 != "\t" }) }
        for hop in hops.reversed() {
            guard let bytes = Self.addressBytes(hop) else { break }
            client = Self.canonical(bytes)
            guard networks.contains(where: { $0.contains(bytes) }) else { break }
        }
        return client
    }

    /// Whether `address` (numeric) is inside a trusted network.
    package func isTrusted(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.addressBytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The bytes of a numeric IPv4 or IPv6 address (an IPv4-mapped IPv6 address as IPv4); nil for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    /// The usual text of an address's bytes.
    static func canonical(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
