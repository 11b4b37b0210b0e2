import Foundation

/// An IPv4 or IPv6 address as bytes (4 or 16, network order), read from every textual form a resolver or libcurl
/// accepts for a host — `127.0.0.1`, `127.1`, `0x7f.1`, `017700000001`, `2130706433`, `[::1]`, `::ffff:127.0.0.1`,
/// `fe80::1%eth0` — or from a socket address's bytes. Whether it may be reached is
/// ``isGloballyReachable`` (in `IPAddress+GlobalReachability.swift`).
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, network order.
    package let bytes: [UInt8]

    /// An address from its raw bytes; nil unless there are 4 or 16.
    package init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// An address from its text; nil when `text` is not an address (a host name, or nothing valid).
    ///
    /// IPv4 follows `inet_aton`: one to four parts, each decimal, octal (a leading `0`) or hexadecimal (`0x`), the
    /// last part filling the remaining bytes — the forms libcurl and glibc's resolver turn into an address. IPv6 may
    /// stand in brackets and carry a zone (`%eth0`), which is dropped.
    package init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let bytes = Self.ipv4(text) {
            self.bytes = bytes
        } else if text.contains(":"), let bytes = Self.ipv6(text) {
            self.bytes = bytes
        } else {
            return nil
        }
    }

    /// Whether this is an IPv4 address.
    package var isIPv4: Bool { bytes.count == 4 }

    /// The canonical text (`127.0.0.1`, `::1`).
    package var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `inet_aton`'s forms, strictly: no sign, no spaces, no empty part, no trailing dot, each value in range.
    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = number(part) else { return nil }
            values.append(value)
        }
        // Every part but the last is one byte; the last fills the bytes left.
        for value in values.dropLast() where value > 255 { return nil }
        let lastBytes = 5 - values.count
        guard let last = values.last, last < (UInt64(1) << (8 * UInt64(lastBytes))) else { return nil }
        var bytes = values.dropLast().map { UInt8($0) }
        for index in (0..<lastBytes).reversed() { bytes.append(UInt8(truncatingIfNeeded: last >> (8 * UInt64(index)))) }
        return bytes
    }

    /// One part: `0x` hexadecimal, a leading `0` octal, else decimal (at most 32 bits' worth of digits).
    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.utf8.count <= 34 else { return nil }
        let lower = part.lowercased()
        let value: UInt64?
        if lower.hasPrefix("0x") {
            let digits = lower.dropFirst(2)
            value = digits.isEmpty ? nil : UInt64(digits, radix: 16)
        } else if lower.hasPrefix("0"), lower.count > 1 {
            value = UInt64(lower.dropFirst(), radix: 8)
        } else {
            value = UInt64(lower, radix: 10)
        }
        guard let value, value <= UInt64(UInt32.max), part.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "x" || $0 == "X") })
        else { return nil }
        return value
    }

    /// RFC 4291 text (with an embedded IPv4 tail allowed), through `inet_pton`; a `%zone` is dropped.
    private static func ipv6(_ text: Substring) -> [UInt8]? {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? text
        var bytes = [UInt8](repeating: 0, count: 16)
        let parsed = String(address).withCString { inet_pton(AF_INET6, $0, &bytes) }
        return parsed == 1 ? bytes : nil
    }
}
