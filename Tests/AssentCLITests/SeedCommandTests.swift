import AssentCrypto
import AssentServerCore
import AssentStorage
import AssentTestSupport
import AssentWire
import Foundation
import Testing

/// `assent admin seed` as an operator runs it: counts in its JSON, refusal of a tenant that has users, idempotence
/// with --force, and a seeded user approving a real push challenge on a real assentd with its derived key.
@Suite struct SeedCommandTests {
    private func json(_ result: CLIProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func `seed counts every table, refuses a tenant with users, and adds nothing again with --force`() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let created = try json(try CLIProcess.run(["admin", "tenant", "create", "--database", database.path, "--json"]))
        let tenant = try #require(created["tenantId"] as? String)
        let seed = ["admin", "seed", "--database", database.path, "--tenant", tenant, "--users", "300", "--qr",
                    "--powerauth", "--batch", "128", "--seed", "s1", "--json"]

        let first = try CLIProcess.run(seed)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try json(first)
        let inserted = try #require(summary["inserted"] as? [String: Int])
        #expect(inserted == ["users": 300, "authenticators": 600, "actions": 1500, "challenges": 1200, "activations": 300])
        #expect(summary["rows"] as? Int == 3900 && summary["users"] as? Int == 300)
        #expect((summary["seconds"] as? Double).map { $0 > 0 } == true && summary["rowsPerSecond"] != nil)
        // The seed itself is never printed: it is every seeded device's private key.
        #expect(!first.stdout.contains("\"s1\"") && summary["seedFingerprint"] as? String == SeedCommandTestsFingerprint.s1)
        #expect(first.stderr.isEmpty)  // no progress bar when stderr is not a terminal

        let refused = try CLIProcess.run(seed)
        #expect(refused.status != 0)
        #expect(try json(refused)["errorCode"] as? String == "tenant_has_users")

        let forced = try CLIProcess.run(seed + ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try json(forced)["rows"] as? Int == 0)

        let store = try DatabaseLocation(database.path).open(connections: 1)
        defer { Task { await store.close() } }
        let authenticators = try await store.authenticators(tenantID: tenant, userID: SeededDevice.userID(299))
        #expect(authenticators.map(\.verificationMethod.rawValue).sorted() == ["DEVICE", "PUSH"])
        #expect(try await store.user(tenantID: tenant, userID: SeededDevice.userID(300)) == nil)

        // The human output is one summary line.
        let more = try CLIProcess.run(["admin", "seed", "--database", database.path, "--tenant", tenant, "--users", "301",
                                       "--seed", "s1", "--force"])
        #expect(more.status == 0)
        #expect(more.stdout.split(separator: "\n").count == 1)
        #expect(more.stdout.hasPrefix("seeded tenant \(tenant): 301 users (seed sha256:"))
        #expect(more.stdout.contains("new rows: 1 users, 1 credentials, 4 actions, 3 challenges, 0 activations"))
    }

    @Test func `seed refuses bad counts and an unknown tenant`() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        _ = try CLIProcess.run(["admin", "tenant", "create", "--database", database.path, "--json"])
        for users in ["0", "-3", "many"] {
            let result = try CLIProcess.run(["admin", "seed", "--database", database.path, "--tenant", "x", "--users", users])
            #expect(result.status != 0 && result.stderr.contains("--users"))
        }
        let unknown = try CLIProcess.run(
            ["admin", "seed", "--database", database.path, "--tenant", "nobody", "--users", "1", "--json"])
        #expect(try json(unknown)["errorCode"] as? String == "not_found")
    }

    @Test func `a seeded user approves a real push challenge with its derived key`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let seeded = try CLIProcess.run(
            ["admin", "seed", "--database", server.database, "--tenant", server.tenantID, "--users", "40", "--json"])
        #expect(seeded.status == 0, "\(seeded.stderr)")

        let index = 23
        let userID = SeededDevice.userID(index)
        let key = try SeededDevice.privateKey(seed: SeededDevice.defaultSeed, index: index)
        let publicKey = Base64.encode(key.publicKey.spkiDER)
        let device = "Basic " + Base64.encodeURL(Array("\(server.tenantID):".utf8))

        let token = try #require(try await server.track(user: userID, action: "signIn")["token"] as? String)
        let challengeID = try #require(
            try await server.call("/v1/client/challenge/push", bearer: token, body: ["action": "signIn"])["challengeId"]
                as? String)
        let query = Base64.encodeURL(Array(publicKey.utf8))
        let pending = try await server.call(
            "GET", "/v1/client/user-authenticators/push/challenge?publicKey=\(query)", authorization: device)
        #expect(pending.status == 200 && pending.json["challengeId"] as? String == challengeID)

        let signature = Base64.encode(try key.signature(for: Array(challengeID.utf8)))
        let answer = try await server.call(
            "POST", "/v1/client/user-authenticators/push/challenge", authorization: device,
            body: ["challengeId": challengeID, "publicKey": publicKey, "approved": true, "signature": signature])
        #expect(answer.status == 200 && answer.json["isVerified"] as? Bool == true)
        let verified = try await server.call("/v1/client/verify/push", bearer: token, body: ["challengeId": challengeID])
        #expect(verified["isVerified"] as? Bool == true && verified["accessToken"] is String)

        // Another seed's key for the same index is no credential of that user.
        let stranger = try SeededDevice.privateKey(seed: "other", index: index)
        let strangerQuery = Base64.encodeURL(Array(Base64.encode(stranger.publicKey.spkiDER).utf8))
        let refused = try await server.call(
            "GET", "/v1/client/user-authenticators/push/challenge?publicKey=\(strangerQuery)", authorization: device)
        #expect(refused.status != 200)
    }
}

/// The fingerprint `assent admin seed` prints for the seed "s1": the first 8 bytes of its SHA-256.
private enum SeedCommandTestsFingerprint {
    static let s1 = SHA256.hash(Array("s1".utf8)).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
