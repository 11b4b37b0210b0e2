/// Which addresses a tenant-supplied URL may reach: the IANA IPv4 and IPv6 Special-Purpose Address Registries
/// (rows marked "Globally Reachable: False", and the deprecated or "N/A" rows that can lead inside: 6to4 relays,
/// Teredo, IPv4-compatible addresses, site-local), multicast, and IPv6 outside global unicast `2000::/3`. IPv6 forms
/// that carry an IPv4 address (IPv4-mapped `::ffff:0:0/96`, the well-known NAT64 prefix `64:ff9b::/96`, 6to4
/// `2002::/16`) are judged by the IPv4 address inside them. The one function every check uses — configuration time
/// and libcurl's connect-time callback alike — so its table test covers both.
extension IPAddress {
    /// A block of addresses: a prefix and its length in bits.
    struct Block: Sendable {
        let prefix: IPAddress
        let length: Int

        init(_ prefix: String, _ length: Int) {
            self.prefix = IPAddress(prefix)!
            self.length = length
        }

        func contains(_ address: IPAddress) -> Bool {
            guard address.bytes.count == prefix.bytes.count else { return false }
            var bits = length
            for (a, b) in zip(address.bytes, prefix.bytes) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                guard a & mask == b & mask else { return false }
                bits -= 8
            }
            return true
        }
    }

    /// IPv4 blocks that are not globally reachable (IANA IPv4 Special-Purpose Address Registry, plus multicast).
    static let nonGlobalIPv4: [Block] = [
        Block("0.0.0.0", 8),  // "this network" (RFC 791)
        Block("10.0.0.0", 8),  // private use (RFC 1918)
        Block("100.64.0.0", 10),  // shared address space, carrier-grade NAT (RFC 6598)
        Block("127.0.0.0", 8),  // loopback (RFC 1122)
        Block("169.254.0.0", 16),  // link-local (RFC 3927), cloud metadata services
        Block("172.16.0.0", 12),  // private use (RFC 1918)
        Block("192.0.0.0", 24),  // IETF protocol assignments (RFC 6890), except .9 and .10 below
        Block("192.0.2.0", 24),  // documentation TEST-NET-1 (RFC 5737)
        Block("192.88.99.0", 24),  // deprecated 6to4 relay anycast (RFC 7526)
        Block("192.168.0.0", 16),  // private use (RFC 1918)
        Block("198.18.0.0", 15),  // benchmarking (RFC 2544)
        Block("198.51.100.0", 24),  // documentation TEST-NET-2 (RFC 5737)
        Block("203.0.113.0", 24),  // documentation TEST-NET-3 (RFC 5737)
        Block("224.0.0.0", 4),  // multicast (RFC 5771)
        Block("240.0.0.0", 4),  // reserved (RFC 1112), including the limited broadcast 255.255.255.255
    ]

    /// Rows inside a non-global IPv4 block that the registry marks globally reachable.
    static let globalIPv4Exceptions: [Block] = [
        Block("192.0.0.9", 32),  // Port Control Protocol anycast (RFC 7723)
        Block("192.0.0.10", 32),  // Traversal Using Relays around NAT anycast (RFC 8155)
    ]

    /// IPv6 blocks inside `2000::/3` that are not globally reachable, or lead somewhere else (Teredo, 6to4 relays).
    static let nonGlobalIPv6: [Block] = [
        Block("2001::", 23),  // IETF protocol assignments (RFC 2928): Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID
        Block("2001:db8::", 32),  // documentation (RFC 3849)
        Block("3fff::", 20),  // documentation (RFC 9637)
        Block("5f00::", 16),  // segment routing SIDs (RFC 9602)
    ]

    /// Rows inside `2001::/23` that the registry marks globally reachable.
    static let globalIPv6Exceptions: [Block] = [
        Block("2001:1::1", 128),  // Port Control Protocol anycast (RFC 7723)
        Block("2001:1::2", 128),  // TURN anycast (RFC 8155)
        Block("2001:1::3", 128),  // DNS-SD service registration protocol anycast (RFC 9665)
        Block("2001:3::", 32),  // AMT (RFC 7450)
        Block("2001:4:112::", 48),  // AS112-v6 (RFC 7535)
        Block("2001:20::", 28),  // ORCHIDv2 (RFC 7343)
        Block("2001:30::", 28),  // drone remote ID DETs (RFC 9374)
    ]

    /// IPv6 prefixes whose last or embedded 32 bits are an IPv4 address, judged by that address.
    static let mappedIPv4 = Block("::ffff:0:0", 96)  // IPv4-mapped (RFC 4291)
    static let nat64 = Block("64:ff9b::", 96)  // well-known NAT64 prefix (RFC 6052)
    static let sixToFour = Block("2002::", 16)  // 6to4 (RFC 3056): the IPv4 address is bytes 2...5
    static let globalUnicast = Block("2000::", 3)

    /// Whether a tenant-supplied URL may reach this address: false for loopback, private, shared, link-local,
    /// unique-local, multicast, documentation, benchmarking, reserved and every other address IANA does not mark
    /// globally reachable, in IPv4 and IPv6, including IPv6 forms of such IPv4 addresses.
    package var isGloballyReachable: Bool {
        if isIPv4 {
            if Self.globalIPv4Exceptions.contains(where: { $0.contains(self) }) { return true }
            return !Self.nonGlobalIPv4.contains { $0.contains(self) }
        }
        if Self.mappedIPv4.contains(self) || Self.nat64.contains(self) {
            return IPAddress(bytes: bytes[12..<16])!.isGloballyReachable
        }
        if Self.sixToFour.contains(self) {
            return IPAddress(bytes: bytes[2..<6])!.isGloballyReachable
        }
        // Outside 2000::/3 lies nothing a public host may hold: ::/128, ::1, IPv4-compatible ::/96, the NAT64
        // local-use prefix 64:ff9b:1::/48, discard 100::/64, unique-local fc00::/7, link-local fe80::/10, site-local
        // fec0::/10, multicast ff00::/8 and unassigned space.
        guard Self.globalUnicast.contains(self) else { return false }
        if Self.globalIPv6Exceptions.contains(where: { $0.contains(self) }) { return true }
        return !Self.nonGlobalIPv6.contains { $0.contains(self) }
    }
}
