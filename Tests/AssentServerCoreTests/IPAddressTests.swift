@testable import AssentServerCore
import Testing

/// The one classification every outbound check uses (`IPAddress.isGloballyReachable`), row by row over IANA's
/// IPv4 and IPv6 Special-Purpose Address Registries (the first and last address of each block, and its neighbours),
/// and the textual forms resolvers and libcurl accept for an address. Pure functions: no packet is sent.
@Suite struct IPAddressTests {
    /// (address, globally reachable, registry row).
    static let ipv4: [(String, Bool, String)] = [
        ("0.0.0.0", false, "0.0.0.0/8 this network"), ("0.255.255.255", false, "0.0.0.0/8"),
        ("1.0.0.0", true, "after 0/8"),
        ("9.255.255.255", true, "before 10/8"), ("10.0.0.0", false, "10/8 private"), ("10.255.255.255", false, "10/8"),
        ("11.0.0.0", true, "after 10/8"),
        ("100.63.255.255", true, "before 100.64/10"), ("100.64.0.0", false, "100.64/10 shared"),
        ("100.127.255.255", false, "100.64/10"), ("100.128.0.0", true, "after 100.64/10"),
        ("126.255.255.255", true, "before 127/8"), ("127.0.0.1", false, "127/8 loopback"),
        ("127.255.255.255", false, "127/8"), ("128.0.0.0", true, "after 127/8"),
        ("169.253.255.255", true, "before 169.254/16"), ("169.254.0.0", false, "169.254/16 link-local"),
        ("169.254.169.254", false, "cloud metadata"), ("169.254.255.255", false, "169.254/16"),
        ("169.255.0.0", true, "after 169.254/16"),
        ("172.15.255.255", true, "before 172.16/12"), ("172.16.0.0", false, "172.16/12 private"),
        ("172.31.255.255", false, "172.16/12"), ("172.32.0.0", true, "after 172.16/12"),
        ("192.0.0.0", false, "192.0.0/24 IETF"), ("192.0.0.8", false, "192.0.0.8/32 IPv4 dummy"),
        ("192.0.0.9", true, "192.0.0.9/32 PCP anycast"), ("192.0.0.10", true, "192.0.0.10/32 TURN anycast"),
        ("192.0.0.170", false, "192.0.0.170/32 NAT64 discovery"), ("192.0.0.171", false, "192.0.0.171/32 DNS64"),
        ("192.0.0.255", false, "192.0.0/24"), ("192.0.1.0", true, "after 192.0.0/24"),
        ("192.0.2.0", false, "192.0.2/24 TEST-NET-1"), ("192.0.2.255", false, "192.0.2/24"),
        ("192.0.3.0", true, "after 192.0.2/24"),
        ("192.31.196.1", true, "192.31.196/24 AS112-v4"), ("192.52.193.1", true, "192.52.193/24 AMT"),
        ("192.88.99.0", false, "192.88.99/24 deprecated 6to4 relay"), ("192.88.99.255", false, "192.88.99/24"),
        ("192.167.255.255", true, "before 192.168/16"), ("192.168.0.0", false, "192.168/16 private"),
        ("192.168.255.255", false, "192.168/16"), ("192.169.0.0", true, "after 192.168/16"),
        ("192.175.48.1", true, "192.175.48/24 AS112 direct delegation"),
        ("198.17.255.255", true, "before 198.18/15"), ("198.18.0.0", false, "198.18/15 benchmarking"),
        ("198.19.255.255", false, "198.18/15"), ("198.20.0.0", true, "after 198.18/15"),
        ("198.51.100.0", false, "198.51.100/24 TEST-NET-2"), ("198.51.100.255", false, "198.51.100/24"),
        ("203.0.113.0", false, "203.0.113/24 TEST-NET-3"), ("203.0.113.255", false, "203.0.113/24"),
        ("203.0.114.0", true, "after 203.0.113/24"),
        ("223.255.255.255", true, "before 224/4"), ("224.0.0.1", false, "224/4 multicast"),
        ("239.255.255.255", false, "224/4"), ("240.0.0.0", false, "240/4 reserved"),
        ("255.255.255.254", false, "240/4"), ("255.255.255.255", false, "255.255.255.255/32 limited broadcast"),
        ("8.8.8.8", true, "public"), ("93.184.215.14", true, "public"),
    ]

    static let ipv6: [(String, Bool, String)] = [
        ("::", false, "::/128 unspecified"), ("::1", false, "::1/128 loopback"),
        ("::ffff:127.0.0.1", false, "::ffff:0:0/96 IPv4-mapped loopback"), ("::ffff:10.1.2.3", false, "mapped private"),
        ("::ffff:169.254.169.254", false, "mapped metadata"), ("::ffff:8.8.8.8", true, "mapped public"),
        ("::127.0.0.1", false, "::/96 IPv4-compatible (deprecated)"), ("::8.8.8.8", false, "::/96 IPv4-compatible"),
        ("::ffff:0:7f00:1", false, "::ffff:0:0:0/96 SIIT"),
        ("64:ff9b::7f00:1", false, "64:ff9b::/96 NAT64 of loopback"), ("64:ff9b::a00:1", false, "NAT64 of 10/8"),
        ("64:ff9b::808:808", true, "64:ff9b::/96 NAT64 of a public address"),
        ("64:ff9b:1::808:808", false, "64:ff9b:1::/48 local-use NAT64"),
        ("100::", false, "100::/64 discard-only"), ("100:0:0:1::1", false, "100:0:0:1::/64 dummy prefix"),
        ("2001::", false, "2001::/32 Teredo"), ("2001:0:4136:e378:8000:63bf:3fff:fdd2", false, "Teredo"),
        ("2001:1::1", true, "2001:1::1/128 PCP anycast"), ("2001:1::2", true, "2001:1::2/128 TURN anycast"),
        ("2001:1::3", true, "2001:1::3/128 DNS-SD SRP anycast"), ("2001:1::4", false, "2001::/23 IETF"),
        ("2001:2::", false, "2001:2::/48 benchmarking"), ("2001:2:0:ffff::1", false, "2001:2::/48"),
        ("2001:3::1", true, "2001:3::/32 AMT"), ("2001:4:112::1", true, "2001:4:112::/48 AS112-v6"),
        ("2001:10::1", false, "2001:10::/28 ORCHID (deprecated)"),
        ("2001:20::1", true, "2001:20::/28 ORCHIDv2"), ("2001:30::1", true, "2001:30::/28 drone DETs"),
        ("2001:1ff:ffff::1", false, "2001::/23 end"), ("2001:200::1", true, "after 2001::/23"),
        ("2001:db8::", false, "2001:db8::/32 documentation"), ("2001:db8:ffff::1", false, "2001:db8::/32"),
        ("2001:db9::1", true, "after 2001:db8::/32"),
        ("2002:7f00:1::", false, "2002::/16 6to4 of loopback"), ("2002:c0a8:101::1", false, "6to4 of 192.168/16"),
        ("2002:808:808::1", true, "6to4 of a public address"),
        ("2620:4f:8000::1", true, "2620:4f:8000::/48 AS112 direct delegation"),
        ("3fff::1", false, "3fff::/20 documentation"), ("3fff:fff::1", false, "3fff::/20"),
        ("3fff:1000::1", true, "after 3fff::/20"),
        ("5f00::1", false, "5f00::/16 SRv6 SIDs"),
        ("fc00::1", false, "fc00::/7 unique-local"), ("fdff:ffff::1", false, "fc00::/7"),
        ("fe80::1", false, "fe80::/10 link-local"), ("febf::1", false, "fe80::/10"),
        ("fec0::1", false, "fec0::/10 site-local (deprecated)"),
        ("ff02::1", false, "ff00::/8 multicast"), ("ff0e::1", false, "ff00::/8 global-scope multicast"),
        ("1fff:ffff::1", false, "outside 2000::/3"), ("4000::1", false, "outside 2000::/3"),
        ("2606:4700:4700::1111", true, "public"), ("2a00:1450:4001::1", true, "public"),
    ]

    @Test(arguments: ipv4 + ipv6)
    func `each registry row is classified`(_ row: (String, Bool, String)) throws {
        let address = try #require(IPAddress(row.0), "\(row.0) parses")
        #expect(address.isGloballyReachable == row.1, "\(row.0): \(row.2)")
    }

    /// Textual forms of one address, as inet_aton, libcurl and URL hosts spell them.
    static let forms: [(String, String)] = [
        ("127.1", "127.0.0.1"), ("127.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0x7F.0.0.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"), ("127.0x0.0.01", "127.0.0.1"), ("0", "0.0.0.0"), ("10.1", "10.0.0.1"),
        ("169.254.43518", "169.254.169.254"), ("0xa9fea9fe", "169.254.169.254"), ("3232235777", "192.168.1.1"),
        ("[::1]", "::1"), ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"), ("::ffff:7f00:1", "::ffff:127.0.0.1"),
        ("[0:0:0:0:0:0:0:1]", "::1"), ("fe80::1%eth0", "fe80::1"), ("[fe80::1%25eth0]", "fe80::1"),
        ("[::]", "::"), ("8.8.8.8", "8.8.8.8"),
    ]

    @Test(arguments: forms)
    func `every textual form of an address is read as that address`(_ form: (String, String)) throws {
        let address = try #require(IPAddress(form.0), "\(form.0) parses")
        #expect(address.description == form.1)
        #expect(address == IPAddress(form.1))
    }

    @Test(arguments: ["127.1", "0x7f.1", "2130706433", "[::1]", "[::ffff:127.0.0.1]", "0177.1", "0", "0x0"])
    func `loopback in any spelling is not globally reachable`(_ text: String) throws {
        #expect(try #require(IPAddress(text)).isGloballyReachable == false)
    }

    @Test(arguments: [
        "localhost", "example.com", "256.0.0.1", "1.2.3.4.5", "1.2.3.256", "4294967296", "127.0.0.1.", "1..2",
        "0x", "-1", "+1.2.3.4", " 127.0.0.1", "::g", "[::1", "12345::", "1.2.3.0x100", "08", "0x1g", "",
    ])
    func `what is not an address is not read as one`(_ text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test func `addresses come from socket bytes too`() throws {
        #expect(try #require(IPAddress(bytes: [127, 0, 0, 1])).isGloballyReachable == false)
        #expect(try #require(IPAddress(bytes: [8, 8, 8, 8])).isGloballyReachable)
        #expect(IPAddress(bytes: [1, 2, 3]) == nil && IPAddress(bytes: []) == nil)
    }
}
