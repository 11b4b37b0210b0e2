import Foundation
import Testing
import AssentTestSupport

/// `assent device push ...` as a real process: usage and local failures without a server, then the whole device
/// life cycle against a real `assentd`.
@Suite(.serialized) struct DeviceCommandTests {
    /// A device home that does not exist yet, inside a fresh temporary directory.
    private struct Home {
        let root: String
        var path: String { (root as NSString).appendingPathComponent("device") }
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("assent-device-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
        func mode(_ relative: String = "") throws -> Int {
            let target = relative.isEmpty ? path : (path as NSString).appendingPathComponent(relative)
            return (try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
    }

    private func device(_ home: Home, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIProcess.Result {
        try CLIProcess.run(["device", "push"] + arguments + ["--home", home.path], environment: environment)
    }

    // MARK: Without a server

    @Test(arguments: [
        (["device", "--help"], "push"),
        (["device", "push", "--help"], "approve"),
        (["device", "push", "enrol", "--help"], "--push-token"),
        (["device", "push", "approve", "--help"], "--code"),
        (["device", "push", "update", "--help"], "--reset-expiry"),
    ])
    func `help describes the device commands`(_ arguments: [String], _ mentions: String) throws {
        let result = try CLIProcess.run(arguments)
        #expect(result.status == 0 && result.stdout.contains(mentions))
    }

    @Test(arguments: [
        ["enrol", "--url", "http://127.0.0.1:1", "--tenant", "t"],
        ["enrol", "--url", "ftp://example.com", "--tenant", "t", "--token", "x"],
        ["enrol", "--url", "http://127.0.0.1:1", "--tenant", "", "--token", "x"],
        ["approve", "--code"],
        ["show", "positional"],
    ])
    func `bad command lines are usage errors that touch nothing`(_ arguments: [String]) throws {
        let home = try Home()
        defer { home.remove() }
        let result = try device(home, arguments)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test(arguments: ["show", "update", "challenge", "approve", "deny", "remove"])
    func `commands before enrolment fail with credential_not_found`(_ command: String) throws {
        let home = try Home()
        defer { home.remove() }
        let result = try device(home, [command, "--json"])
        #expect(result.status == 1)
        #expect(try result.object()["errorCode"] as? String == "credential_not_found")
        #expect(result.stderr.contains("assent device push enrol"))
    }

    @Test func `an unreachable server at enrolment is network_error and nothing is remembered`() throws {
        let home = try Home()
        defer { home.remove() }
        let result = try device(home, ["enrol", "--url", "http://127.0.0.1:1", "--tenant", "t", "--token", "x", "--json"])
        #expect(result.status == 1)
        #expect(try result.object()["errorCode"] as? String == "network_error")
        #expect(!FileManager.default.fileExists(atPath: (home.path as NSString).appendingPathComponent("device.json")))
    }

    // MARK: Against assentd

    @Test func `a device enrols, shows, updates, sees and answers challenges, and removes itself`() async throws {
        let server = try ServerProcess(settings: [
            "--number-matching", "on", "--public-custom-keys", "amount", "--push-credential-lifetime", "86400",
        ])
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }

        let enrolToken = try server.trackToken(user: "alice", action: "enrol", ["--scope", "add:authenticators"])
        let enrolled = try device(home, [
            "enrol", "--url", server.url, "--tenant", server.tenantID, "--token", enrolToken, "--push-token", "fcm-1",
            "--device-name", "CI box", "--json",
        ])
        #expect(enrolled.status == 0, "\(enrolled.stderr)\n\(server.log)")
        let credential = try enrolled.object()
        let credentialId = try #require(credential["credentialId"] as? String)
        #expect(credential["userId"] as? String == "alice" && credential["tenantId"] as? String == server.tenantID)
        #expect(credential["baseURL"] as? String == server.url + "/v1")
        #expect(!enrolled.stdout.contains(enrolToken))
        #expect(try home.mode() == 0o700 && home.mode("device.json") == 0o600 && home.mode("keys") == 0o700)
        #expect(try home.mode("keys/assent_signing_key_push.key") == 0o600)

        // Later commands need neither the URL nor the tenant.
        let shown = try device(home, ["show", "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(try shown.object()["credentialId"] as? String == credentialId)
        let human = try device(home, ["show"])
        #expect(human.stdout.contains(credentialId) && human.stdout.contains("alice"))
        // Never used yet: no "last used" until the first approve, deny or update.
        let shownObject = try shown.object()
        #expect(credential["lastAuthenticatedAt"] == nil && shownObject["lastAuthenticatedAt"] == nil)
        #expect(human.stdout.split(separator: "\n").contains { $0.contains("last used") && $0.contains("never") })

        let updated = try device(home, ["update", "--push-token", "fcm-2", "--reset-expiry", "--json"])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(try updated.object()["pushToken"] as? String == "fcm-2")
        #expect(try updated.object()["expiresAt"] as? String != nil)
        #expect(try device(home, ["show", "--json"]).object()["lastAuthenticatedAt"] is String, "the update is a use")

        let none = try device(home, ["challenge", "--json"])
        #expect(none.status == 0 && none.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "null")
        #expect(try device(home, ["challenge"]).stdout.contains("No pending challenge."))
        let nothingToApprove = try device(home, ["approve", "--json"])
        #expect(nothingToApprove.status == 1)
        #expect(try nothingToApprove.object()["errorCode"] as? String == "no_pending_challenge")

        // The page starts a challenge; the device shows it with its context.
        let signIn = try server.trackToken(user: "alice", action: "signIn", [
            "--ip", "203.0.113.7", "--user-agent", "Firefox E2E", "--custom", #"{"amount":42,"secret":"x"}"#,
        ])
        let started = try await server.call("/v1/client/challenge/push", bearer: signIn, body: ["action": "signIn"])
        let challengeId = try #require(started["challengeId"] as? String, "\(started)")
        let code = try #require(started["verificationCode"] as? String)

        let pending = try device(home, ["challenge", "--json"])
        let challenge = try pending.object()
        #expect(challenge["challengeId"] as? String == challengeId && challenge["actionCode"] as? String == "signIn")
        #expect(challenge["ipAddress"] as? String == "203.0.113.7" && challenge["userAgent"] as? String == "Firefox E2E")
        #expect((challenge["custom"] as? [String: Any])?.keys.sorted() == ["amount"])
        let described = try device(home, ["challenge"])
        for text in [challengeId, "signIn", "203.0.113.7", "Firefox E2E", "--code", #""amount":42"#] {
            #expect(described.stdout.contains(text), "\(text) in \(described.stdout)")
        }
        #expect(!described.stdout.contains("secret"))

        // Number matching: approving without the code is a usage error and changes nothing.
        let withoutCode = try device(home, ["approve"])
        #expect(withoutCode.status == 2 && withoutCode.stderr.contains("--code"))
        #expect(withoutCode.stdout.contains(challengeId))  // the context came first

        let approved = try device(home, ["approve", "--code", code])
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stdout.contains("Challenge:") && approved.stdout.contains("203.0.113.7"))
        #expect(approved.stdout.contains("Approved challenge \(challengeId)."))
        let verified = try await server.call("/v1/client/verify/push", bearer: signIn, body: ["challengeId": challengeId])
        #expect(verified["isVerified"] as? Bool == true && verified["accessToken"] is String)

        // Deny another one by ID, with --json.
        let second = try server.trackToken(user: "alice", action: "signIn")
        let secondId = try #require(
            try await server.call("/v1/client/challenge/push", bearer: second, body: ["action": "signIn"])["challengeId"]
                as? String)
        let denied = try device(home, ["deny", "--challenge", secondId, "--json"])
        #expect(denied.status == 0, "\(denied.stderr)")
        #expect(try denied.object()["challengeId"] as? String == secondId)
        #expect(try denied.object()["approved"] as? Bool == false)
        let verdict = try await server.call("/v1/client/verify/push", bearer: second, body: ["challengeId": secondId])
        #expect(verdict["isConsumed"] as? Bool == true && verdict["isVerified"] as? Bool == false)

        let removed = try device(home, ["remove", "--json"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try removed.object()["removed"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: (home.path as NSString).appendingPathComponent("device.json")))
        #expect(!FileManager.default.fileExists(atPath: (home.path as NSString).appendingPathComponent("keys/assent_signing_key_push.key")))
        #expect(try device(home, ["show", "--json"]).object()["errorCode"] as? String == "credential_not_found")
    }

    @Test func `keys sealed under a passphrase need it for every command`() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }
        let secret = ["ASSENT_DEVICE_PASSPHRASE": "correct horse"]
        let token = try server.trackToken(user: "bob", action: "enrol", ["--scope", "add:authenticators"])
        let enrolled = try device(home, ["enrol", "--url", server.url, "--tenant", server.tenantID, "--token", token],
                                  environment: secret)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let keyFile = try String(contentsOfFile: (home.path as NSString).appendingPathComponent("keys/assent_signing_key_push.key"),
                                 encoding: .utf8)
        #expect(keyFile.contains("PBKDF2-HMAC-SHA256"))
        #expect(!FileManager.default.fileExists(atPath: (home.path as NSString).appendingPathComponent("keys/keystore.secret")))

        #expect(try device(home, ["show"], environment: secret).status == 0)
        for environment in [[:], ["ASSENT_DEVICE_PASSPHRASE": "wrong"]] {
            let refused = try device(home, ["show", "--json"], environment: environment)
            #expect(refused.status == 1)
            #expect(try refused.object()["errorCode"] as? String == "key_store_error")
        }
        let flagged = try device(home, ["show", "--passphrase", "correct horse"])
        #expect(flagged.status == 0 && flagged.stderr.contains("warning: --passphrase is visible"))
    }

    @Test func `a device enrolled with one tenant refuses to enrol with another`() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }
        let token = try server.trackToken(user: "carol", action: "enrol", ["--scope", "add:authenticators"])
        #expect(try device(home, ["enrol", "--url", server.url, "--tenant", server.tenantID, "--token", token]).status == 0)
        let again = try device(home, ["enrol", "--url", server.url, "--tenant", "other-tenant", "--token", token, "--json"])
        #expect(again.status == 1)
        #expect(try again.object()["errorCode"] as? String == "already_enrolled")
        // Re-enrolling with the same tenant reuses the key: the same credential comes back.
        let first = try device(home, ["show", "--json"]).object()["credentialId"] as? String
        let token2 = try server.trackToken(user: "carol", action: "enrol", ["--scope", "add:authenticators"])
        let re = try device(home, ["enrol", "--url", server.url + "/v1/", "--tenant", server.tenantID, "--token", token2, "--json"])
        #expect(re.status == 0, "\(re.stderr)")
        #expect(try re.object()["credentialId"] as? String == first)
    }
}
