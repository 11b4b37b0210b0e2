import Foundation
import Testing
import AssentTestSupport

/// Help and version output.
@Suite struct HelpTests {
    @Test func versionPrintsTheVersion() throws {
        let result = try CLIProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("assent "))
    }

    @Test(arguments: [
        (["--help"], "admin"),
        (["help"], "admin"),
        (["help", "admin"], "tenant"),
        (["admin", "--help"], "authenticators"),
        (["admin", "help"], "validate"),
        (["admin", "tenant", "-h"], "rotate-secret"),
        (["admin", "tenant", "settings", "--help"], "--action-rule"),
        (["admin", "track", "--help"], "--idempotency-key"),
        (["admin", "user", "update", "--help"], "--display-name"),
        (["admin", "authenticators", "enroll", "--help"], "EMAIL_OTP|SMS"),
    ])
    func helpPrintsUsageOnStdout(_ arguments: [String], _ mentions: String) throws {
        let result = try CLIProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: assent"))
        #expect(result.stdout.contains(mentions))
        #expect(result.stderr.isEmpty)
    }
}
