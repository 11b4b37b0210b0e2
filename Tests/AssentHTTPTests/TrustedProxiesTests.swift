import Testing
@testable import AssentHTTP

/// Which address a request comes from behind a reverse proxy: `X-Forwarded-For` read from the right, believed only
/// from trusted peers.
@Suite struct TrustedProxiesTests {
    private func proxies(_ cidrs: String...) throws -> TrustedProxies {
        TrustedProxies(try cidrs.map { try #require(TrustedProxies.Network(cidr: $0)) })
    }

    @Test func `networks are read as ADDRESS or ADDRESS/PREFIX in IPv4 and IPv6`() {
        #expect(TrustedProxies.Network(cidr: "10.1.2.3/8")?.description == "10.0.0.0/8")
        #expect(TrustedProxies.Network(cidr: "127.0.0.1")?.description == "127.0.0.1/32")
        #expect(TrustedProxies.Network(cidr: "fd00::1/8")?.description == "fd00::/8")
        #expect(TrustedProxies.Network(cidr: "::1")?.description == "::1/128")
        #expect(TrustedProxies.Network(cidr: "10.0.0.0/20")?.description == "10.0.0.0/20")
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0/8", "host.example/24", "10.0.0.0/-1", "10.0.0.0/"] {
            #expect(TrustedProxies.Network(cidr: bad) == nil, "\(bad)")
        }
    }

    @Test func `from a trusted peer the rightmost untrusted hop is the client`() throws {
        let trusted = try proxies("127.0.0.1", "10.0.0.0/8")
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.7"]) == "198.51.100.7")
        // A client's own X-Forwarded-For sits to the left of what the proxies appended: never believed.
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.7, 10.0.0.5"]) == "198.51.100.7")
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "198.51.100.7"]) == "198.51.100.7")
        // Only trusted hops: the leftmost of them.
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: ["10.0.0.9,10.0.0.5"]) == "10.0.0.9")
        // Garbage ends the walk at the last trusted hop.
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.7, nonsense, 10.0.0.5"]) == "10.0.0.5")
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(trusted.clientAddress(peer: "10.9.9.9", forwardedFor: ["::ffff:198.51.100.7"]) == "198.51.100.7")
        #expect(trusted.clientAddress(peer: "127.0.0.1", forwardedFor: ["2001:db8::1"]) == "2001:db8::1")
    }

    @Test func `an untrusted peer's X-Forwarded-For is ignored`() throws {
        let trusted = try proxies("127.0.0.1")
        #expect(trusted.clientAddress(peer: "127.0.0.2", forwardedFor: ["198.51.100.7"]) == "127.0.0.2")
        #expect(TrustedProxies().clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.7"]) == "127.0.0.1")
    }
}
