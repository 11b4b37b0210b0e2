import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import AssentTestSupport

/// `assent device qr ...` as a real process: usage and local failures without a server, then enrolment, claiming a
/// kiosk's challenge from its payload text and from a PNG of the QR code (made with `qrencode`, read with
/// `zbarimg`), approving and declining, against a real `assentd`.
@Suite(.serialized) struct DeviceQRCommandTests {
    /// A device home that does not exist yet, inside a fresh temporary directory.
    private struct Home {
        let root: String
        var path: String { (root as NSString).appendingPathComponent("device") }
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("assent-qr-device-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
        func file(_ relative: String) -> String { (path as NSString).appendingPathComponent(relative) }
        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: file(relative)) }
        func mode(_ relative: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: file(relative))[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        /// `qr.json` as JSON.
        func state() throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: file("qr.json")))
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
    }

    private static let challengeID = String(repeating: "0123456789abcdef", count: 4)
    private static let kioskAgent = "KioskBrowser/1.0 (CLI E2E)"

    private func qr(_ home: Home, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIProcess.Result {
        try CLIProcess.run(["device", "qr"] + arguments + ["--home", home.path], environment: environment)
    }

    /// Plants `qr.json` as enrolment would leave it (owner-only directory and file).
    private func plantState(_ home: Home, baseURL: String = "http://127.0.0.1:1/v1", tenant: String = "t") throws {
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let json = #"{"tenantId":"\#(tenant)","baseURL":"\#(baseURL)"}"#
        _ = FileManager.default.createFile(atPath: home.file("qr.json"), contents: Data(json.utf8),
                                       attributes: [.posixPermissions: 0o600])
    }

    /// `qrencode -o FILE TEXT`: a PNG of a QR code.
    private func png(_ text: String, in home: Home) throws -> String {
        let file = (home.root as NSString).appendingPathComponent("code-\(UUID().uuidString.prefix(8)).png")
        let result = try ProcessRunner.run("/usr/bin/env", ["qrencode", "-o", file, text], timeout: 60)
        guard result.status == 0 else { throw CLIProcess.Failure("qrencode failed (is it installed?): \(result.stderr)") }
        return file
    }

    // MARK: Without a server

    @Test(arguments: [
        (["device", "--help"], "qr"),
        (["device", "qr", "--help"], "claim"),
        (["device", "qr", "claim", "--help"], "--image"),
        (["device", "qr", "enrol", "--help"], "--token"),
        (["device", "qr", "decline", "--help"], "--challenge"),
    ])
    func `help describes the qr commands`(_ arguments: [String], _ mentions: String) throws {
        let result = try CLIProcess.run(arguments)
        #expect(result.status == 0 && result.stdout.contains(mentions), "\(result.stdout)\(result.stderr)")
    }

    @Test(arguments: [
        ["enrol", "--url", "http://127.0.0.1:1", "--tenant", "t"],
        ["enrol", "--token", "x"],
        ["enrol", "--url", "ftp://example.com", "--tenant", "t", "--token", "x"],
        ["claim"],
        ["claim", "--payload", "x", "--image", "y.png"],
        ["claim", "one", "two"],
        ["claim", "--payload", "x", "bare"],
        ["approve", "--challenge"],
        ["show", "extra"],
    ])
    func `bad command lines are usage errors that touch nothing`(_ arguments: [String]) throws {
        let home = try Home()
        defer { home.remove() }
        let result = try qr(home, arguments)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test(arguments: [["show"], ["claim", "--payload", challengeID], ["claim", challengeID], ["approve"], ["decline"], ["remove"]])
    func `commands before enrolment fail with credential_not_found`(_ arguments: [String]) throws {
        let home = try Home()
        defer { home.remove() }
        let result = try qr(home, arguments + ["--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try result.object()["errorCode"] as? String == "credential_not_found")
        #expect(result.stderr.contains("assent device qr enrol"))
    }

    @Test func `approving with nothing claimed is no_claimed_challenge`() throws {
        let home = try Home()
        defer { home.remove() }
        try plantState(home)
        let result = try qr(home, ["approve", "--json"])
        #expect(result.status == 1)
        #expect(try result.object()["errorCode"] as? String == "no_claimed_challenge")
    }

    @Test func `claiming from an image without zbarimg installed says how to get it`() throws {
        let home = try Home()
        defer { home.remove() }
        try plantState(home)
        let image = try png("assent://qr?tenant=t&challenge=\(Self.challengeID)", in: home)
        let empty = (home.root as NSString).appendingPathComponent("empty-path")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try qr(home, ["claim", "--image", image, "--json"], environment: ["PATH": empty])
        #expect(result.status == 1)
        #expect(try result.object()["errorCode"] as? String == "zbarimg_not_found")
        #expect(result.stderr.contains("zbar-tools"))
    }

    @Test func `an image without a QR code, or no image at all, is a clear failure`() throws {
        let home = try Home()
        defer { home.remove() }
        try plantState(home)
        let blank = (home.root as NSString).appendingPathComponent("blank.pbm")
        try "P1\n2 2\n0 0\n0 0\n".write(toFile: blank, atomically: true, encoding: .utf8)
        let none = try qr(home, ["claim", "--image", blank, "--json"])
        #expect(try none.status == 1 && none.object()["errorCode"] as? String == "no_qr_code", "\(none.stderr)")
        let missing = try qr(home, ["claim", "--image", home.file("nope.png"), "--json"])
        #expect(try missing.status == 1 && missing.object()["errorCode"] as? String == "image_unreadable")
    }

    @Test func `a payload for another tenant is refused before anything is sent`() throws {
        let home = try Home()
        defer { home.remove() }
        try plantState(home, tenant: "mine")  // the server URL is unreachable: nothing may be sent
        let result = try qr(home, ["claim", "--payload", "assent://qr?tenant=theirs&challenge=\(Self.challengeID)", "--json"])
        #expect(result.status == 1)
        #expect(try result.object()["errorCode"] as? String == "tenant_mismatch")
        let garbage = try qr(home, ["claim", "--payload", "https://example.com", "--json"])
        #expect(try garbage.object()["errorCode"] as? String == "invalid_qr_payload")
    }

    // MARK: Against assentd

    /// The kiosk page: an anonymous challenge opened with only the tenant ID; answers `qrPayload`, `deviceCode`, ...
    private func start(_ server: ServerProcess, custom: [String: Any]? = nil) async throws -> [String: Any] {
        var body: [String: Any] = ["action": "signIn"]
        body["custom"] = custom
        return try await page(server, "/v1/client/challenge/qr-code", body)
    }

    /// The kiosk's poll.
    private func poll(_ server: ServerProcess, _ challenge: [String: Any]) async throws -> [String: Any] {
        try await page(server, "/v1/client/verify/qr-code", [
            "challengeId": challenge["challengeId"] as Any, "deviceCode": challenge["deviceCode"] as Any,
        ])
    }

    private func page(_ server: ServerProcess, _ path: String, _ body: [String: Any]) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: server.url + path)!, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("Basic " + Data("\(server.tenantID):".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(Self.kioskAgent, forHTTPHeaderField: "User-Agent")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    @Test func `a device enrols for QR codes, claims a kiosk challenge, approves it, and the token validates`() async throws {
        let server = try ServerProcess(settings: ["--public-custom-keys", "terminal"])
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }

        let token = try server.trackToken(user: "alice", action: "enrol", ["--scope", "add:authenticators"])
        let enrolled = try qr(home, ["enrol", "--url", server.url, "--tenant", server.tenantID, "--token", token, "--json"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)\n\(server.log)")
        let credentialId = try #require(try enrolled.object()["credentialId"] as? String)
        #expect(try enrolled.object()["userId"] as? String == "alice")
        #expect(try enrolled.object()["baseURL"] as? String == server.url + "/v1")
        #expect(!enrolled.stdout.contains(token))
        #expect(try home.mode("qr.json") == 0o600 && home.mode("keys/assent_signing_key_qr_code.key") == 0o600)
        #expect(!home.exists("device.json") && !home.exists("keys/assent_signing_key_push.key"), "push is untouched")

        let shown = try qr(home, ["show", "--json"])
        #expect(try shown.status == 0 && shown.object()["credentialId"] as? String == credentialId, "\(shown.stderr)")
        #expect(try qr(home, ["show"]).stdout.contains(credentialId))

        // The kiosk shows a code; the device claims it from the text and shows who is asking.
        let challenge = try await start(server, custom: ["terminal": "Lobby 2", "secret": "x"])
        let challengeId = try #require(challenge["challengeId"] as? String, "\(challenge)")
        let payload = try #require(challenge["qrPayload"] as? String)
        let claimed = try qr(home, ["claim", payload])
        #expect(claimed.status == 0, "\(claimed.stderr)")
        for text in [challengeId, "signIn", "127.0.0.1", Self.kioskAgent, "qr approve"] {
            #expect(claimed.stdout.contains(text), "\(text) in \(claimed.stdout)")
        }
        // An anonymous page's custom data is never shown as the tenant's.
        #expect(!claimed.stdout.contains("Lobby 2") && !claimed.stdout.contains("secret"))
        let remembered = try #require(try home.state()["lastClaim"] as? [String: Any])
        #expect(remembered["challengeId"] as? String == challengeId)
        #expect(try await poll(server, challenge)["isClaimed"] as? Bool == true)

        // Another device is too late.
        let other = try Home()
        defer { other.remove() }
        let otherToken = try server.trackToken(user: "bob", action: "enrol", ["--scope", "add:authenticators"])
        #expect(try qr(other, ["enrol", "--url", server.url, "--tenant", server.tenantID, "--token", otherToken]).status == 0)
        let late = try qr(other, ["claim", "--payload", payload, "--json"])
        #expect(try late.status == 1 && late.object()["errorCode"] as? String == "challenge_closed", "\(late.stdout)")

        // Approve the remembered claim; its context is shown first.
        let approved = try qr(home, ["approve"])
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stdout.contains("Challenge:") && approved.stdout.contains(Self.kioskAgent))
        #expect(approved.stdout.contains("Approved challenge \(challengeId)."))
        #expect(try home.state()["lastClaim"] == nil, "an answered claim is forgotten")

        let verified = try await poll(server, challenge)
        #expect(verified["isVerified"] as? Bool == true)
        let accessToken = try #require(verified["accessToken"] as? String)
        let validated = try CLIProcess.run(["admin", "validate", "--token", accessToken, "--json"],
                                           environment: server.adminEnvironment)
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(try validated.object()["isValid"] as? Bool == true)
        #expect(try validated.object()["verificationMethod"] as? String == "DEVICE")
        #expect(try validated.object()["userId"] as? String == "alice")

        // Nothing is left to approve.
        #expect(try qr(home, ["approve", "--json"]).object()["errorCode"] as? String == "no_claimed_challenge")
    }

    @Test func `a device claims from a PNG of the QR code, declines, and removes its QR credential`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }

        // Enrolled for push first: the QR enrolment reuses its tenant and server.
        let pushToken = try server.trackToken(user: "carol", action: "enrol", ["--scope", "add:authenticators"])
        let push = try CLIProcess.run(["device", "push", "enrol", "--url", server.url, "--tenant", server.tenantID,
                                       "--token", pushToken, "--home", home.path])
        #expect(push.status == 0, "\(push.stderr)")
        let token = try server.trackToken(user: "carol", action: "enrol", ["--scope", "add:authenticators"])
        let enrolled = try qr(home, ["enrol", "--token", token, "--json"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(try enrolled.object()["tenantId"] as? String == server.tenantID)
        #expect(home.exists("keys/assent_signing_key_push.key") && home.exists("keys/assent_signing_key_qr_code.key"))

        let challenge = try await start(server)
        let challengeId = try #require(challenge["challengeId"] as? String, "\(challenge)")
        let image = try png(try #require(challenge["qrPayload"] as? String), in: home)
        let claimed = try qr(home, ["claim", "--image", image, "--json"])
        #expect(claimed.status == 0, "\(claimed.stderr)")
        let claim = try claimed.object()
        #expect(claim["challengeId"] as? String == challengeId && claim["success"] as? Bool == true)
        #expect(claim["actionCode"] as? String == "signIn" && claim["userAgent"] as? String == Self.kioskAgent)
        #expect(claim["ipAddress"] as? String == "127.0.0.1")

        let declined = try qr(home, ["decline", "--challenge", challengeId, "--json"])
        #expect(declined.status == 0, "\(declined.stderr)")
        #expect(try declined.object()["approved"] as? Bool == false)
        #expect(try declined.object()["challengeId"] as? String == challengeId)
        #expect((try declined.object()["challenge"] as? [String: Any])?["actionCode"] as? String == "signIn")
        let verdict = try await poll(server, challenge)
        #expect(verdict["isConsumed"] as? Bool == true && verdict["isVerified"] as? Bool == false)
        #expect(verdict["accessToken"] == nil)
        let again = try qr(home, ["approve", "--challenge", challengeId, "--json"])
        #expect(try again.status == 1 && again.object()["errorCode"] as? String == "challenge_closed")

        let removed = try qr(home, ["remove", "--json"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try removed.object()["removed"] as? Bool == true)
        #expect(!home.exists("qr.json") && !home.exists("keys/assent_signing_key_qr_code.key"))
        #expect(home.exists("device.json") && home.exists("keys/assent_signing_key_push.key"), "push is untouched")
        #expect(try qr(home, ["show", "--json"]).object()["errorCode"] as? String == "credential_not_found")
        let pushShown = try CLIProcess.run(["device", "push", "show", "--json", "--home", home.path])
        #expect(pushShown.status == 0, "\(pushShown.stderr)")
    }

    @Test func `a QR credential enrolled with one tenant refuses to enrol with another`() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }
        let token = try server.trackToken(user: "dave", action: "enrol", ["--scope", "add:authenticators"])
        #expect(try qr(home, ["enrol", "--url", server.url, "--tenant", server.tenantID, "--token", token]).status == 0)
        let again = try qr(home, ["enrol", "--tenant", "other-tenant", "--token", token, "--json"])
        #expect(try again.status == 1 && again.object()["errorCode"] as? String == "already_enrolled")
        // Re-enrolling with the remembered tenant reuses the key: the same credential comes back.
        let first = try qr(home, ["show", "--json"]).object()["credentialId"] as? String
        let token2 = try server.trackToken(user: "dave", action: "enrol", ["--scope", "add:authenticators"])
        let re = try qr(home, ["enrol", "--token", token2, "--json"])
        #expect(re.status == 0, "\(re.stderr)")
        #expect(try re.object()["credentialId"] as? String == first)
    }
}
