@testable import AssentServerCore
import AssentSync
import Testing

/// Configuration-time checks of tenant URLs, with an injected resolver (no name is looked up anywhere): address
/// literals and `localhost` names are refused without resolving, a name is refused when any of its addresses is
/// private, a name that does not resolve is accepted (the connect-time check is the one that counts), and
/// `--allow-private-urls` accepts all.
@Suite struct OutboundURLPolicyTests {
    static let names: [String: [String]] = [
        "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "rebind.example.com": ["93.184.215.14", "10.0.0.7"],
        "internal.example.com": ["::1"],
    ]

    /// The names the resolver was asked for.
    final class Asked: Sendable {
        let names = AssentLock<[String]>([])
    }

    static func policy(allowing: Bool = false, asked: Asked? = nil) -> OutboundURLPolicy {
        OutboundURLPolicy(allowsPrivateAddresses: allowing, resolver: HostResolver { name in
            asked?.names.withLock { $0.append(name) }
            return (names[name] ?? []).compactMap(IPAddress.init)
        })
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/hook", "http://[::1]/hook", "http://127.1/", "http://0x7f.1/", "http://2130706433/",
        "https://[::ffff:127.0.0.1]:443/", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/",
        "http://localhost:9000/", "http://LOCALHOST./", "http://api.localhost/", "http://127.0.0.1./",
        "http://internal.example.com/", "http://rebind.example.com/hook", "https://user:pw@192.168.1.1/x?token=1",
    ])
    func `a URL leading to a private address is refused`(_ url: String) async {
        await #expect(throws: AssentError(.invalidRequest, "")) { try await Self.policy().check(url, field: "webhook URL") }
    }

    @Test(arguments: ["https://hooks.example.com/push", "http://8.8.8.8/", "https://[2606:4700:4700::1111]/x"])
    func `a URL leading only to public addresses is accepted`(_ url: String) async throws {
        try await Self.policy().check(url, field: "webhook URL")
    }

    @Test func `a name that does not resolve is accepted, checked again when connecting`() async throws {
        let asked = Asked()
        try await Self.policy(asked: asked).check("https://not-yet.example.net/hook", field: "webhook URL")
        #expect(asked.names.withLock { $0 } == ["not-yet.example.net"])
    }

    @Test func `address literals and localhost names are judged without resolving`() async {
        let asked = Asked()
        for url in ["http://127.0.0.1/", "http://localhost/", "http://8.8.8.8/"] {
            _ = try? await Self.policy(asked: asked).check(url, field: "webhook URL")
        }
        #expect(asked.names.withLock { $0 }.isEmpty)
    }

    @Test(arguments: ["ftp://hooks.example.com/", "not a url", "http:///nohost", "file:///etc/passwd"])
    func `a URL that is not http(s) with a host is refused whatever the policy`(_ url: String) async {
        await #expect(throws: AssentError(.invalidRequest, "")) {
            try await Self.policy(allowing: true).check(url, field: "webhook URL")
        }
    }

    @Test func `--allow-private-urls accepts private addresses, also when connecting`() async throws {
        let policy = Self.policy(allowing: true)
        try await policy.check("http://127.0.0.1:8080/hook", field: "webhook URL")
        try await policy.check("http://localhost/", field: "webhook URL")
        #expect(policy.allowsConnection(to: IPAddress("127.0.0.1")!))
        #expect(!Self.policy().allowsConnection(to: IPAddress("127.0.0.1")!))
        #expect(Self.policy().allowsConnection(to: IPAddress("8.8.8.8")!))
    }

    @Test func `the system resolver finds localhost in the hosts file`() async {
        // /etc/hosts only: no name server is asked for "localhost".
        let addresses = await HostResolver.system.addresses(of: "localhost")
        #expect(!addresses.isEmpty && addresses.allSatisfy { !$0.isGloballyReachable })
    }
}
