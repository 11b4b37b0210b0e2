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

    @Test(arguments: [
        (["admni"], "did you mean 'admin'?"),
        (["admin", "tenant", "setings"], "did you mean 'settings'?"),
        (["admin", "tenant", "rotate"], "did you mean 'rotate-secret'?"),
        (["help", "admin", "trak"], "did you mean 'track'?"),
        (["admin", "track", "--usr", "u", "--action", "a"], "did you mean --user?"),
        (["admin", "track", "--user", "u", "--action", "a", "--idempotencykey", "k"], "did you mean --idempotency-key?"),
    ])
    func `a mistyped command or option is answered with the nearest one`(_ arguments: [String], _ suggestion: String) throws {
        // Issue 22 §3.9.
        let result = try CLIProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(suggestion), "\(result.stderr)")
    }

    @Test func `nothing is suggested when nothing is near`() throws {
        for arguments in [["admin", "xyzzy"], ["admin", "track", "--user", "u", "--action", "a", "--qqqqqq"]] {
            let result = try CLIProcess.run(arguments)
            #expect(result.status == 2 && !result.stderr.contains("did you mean"), "\(result.stderr)")
        }
    }
}
