import Foundation
import Testing
import AssentTestSupport

/// The server API commands' behaviour that needs no server: checking input and reporting an unreachable one.
/// Their exchanges with a real `assentd` are covered end to end.
@Suite struct ServerAPICommandTests {
    /// Nothing listens on port 1 of the loopback interface.
    private let unreachable = ["ASSENT_URL": "http://127.0.0.1:1", "ASSENT_SECRET_KEY": "sk_test"]

    @Test func withoutASecretKeyItIsAUsageError() throws {
        let result = try CLIProcess.run(["admin", "user", "get", "--user", "alice"], environment: ["ASSENT_URL": "http://127.0.0.1:1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("ASSENT_SECRET_KEY"))
    }

    @Test func anUnreachableServerIsAFailureWithANetworkError() throws {
        let text = try CLIProcess.run(["admin", "user", "get", "--user", "alice"], environment: unreachable)
        #expect(text.status == 1)
        #expect(text.stderr.contains("cannot reach http://127.0.0.1:1"))

        let json = try CLIProcess.run(["admin", "user", "get", "--user", "alice", "--json"], environment: unreachable)
        #expect(json.status == 1)
        #expect(try json.object()["errorCode"] as? String == "network_error")
    }

    @Test func aSecretGivenAsAFlagIsWarnedAbout() throws {
        let result = try CLIProcess.run(
            ["admin", "user", "get", "--user", "alice", "--url", "http://127.0.0.1:1", "--secret", "sk_test"])
        #expect(result.stderr.contains("warning: --secret is visible to other users"))
        #expect(!result.stderr.contains("sk_test"))
    }

    @Test(arguments: [
        ["admin", "track", "--user", "alice", "--action", "signIn", "--custom", "[1,2]"],
        ["admin", "track", "--user", "alice", "--action", "sign in"],
        ["admin", "track", "--user", "alice"],
        ["admin", "action", "update", "--user", "alice", "--action", "signIn", "--idempotency-key", "k", "--state", "DONE"],
        ["admin", "user", "update", "--user", "alice"],
        ["admin", "authenticators", "enroll", "--user", "alice", "--method", "PUSH", "--email", "a@example.com"],
        ["admin", "authenticators", "enroll", "--user", "alice", "--method", "SMS", "--email", "a@example.com"],
        ["admin", "authenticators", "enroll", "--user", "alice", "--method", "EMAIL_OTP"],
        ["admin", "validate"],
        ["admin", "user", "get", "--user", "alice", "--url", "ftp://example.com"],
    ])
    func badInputIsAUsageErrorBeforeAnyRequest(_ arguments: [String]) throws {
        let result = try CLIProcess.run(arguments, environment: unreachable)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("cannot reach"))
    }
}
