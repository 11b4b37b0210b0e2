@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing
import AssentTestSupport

/// Everything that expires, driven by a manual clock against a real server: no test sleeps.
@Suite(.serialized) struct ExpiryTests {
    private func enrol(_ server: LiveServer, _ user: String, _ device: TestDevice = TestDevice()) async throws -> TestDevice {
        let (token, _) = try await server.track(user, "enrol", scope: "add:authenticators")
        let reply = try await server.request(
            "POST", "/v1/client/user-authenticators/push", json: ["publicKey": device.publicKey],
            headers: ["Authorization": "Bearer \(token)"])
        #expect(reply.status == 200)
        return device
    }

    private func startPush(_ server: LiveServer, _ user: String) async throws -> (challengeID: String, token: String) {
        let (token, _) = try await server.track(user)
        let reply = try await server.request(
            "POST", "/v1/client/challenge/push", json: ["action": "signIn"], headers: ["Authorization": "Bearer \(token)"])
        return (try #require(reply.json["challengeId"] as? String), token)
    }

    private func approve(_ server: LiveServer, _ device: TestDevice, _ challengeID: String) async throws -> LiveServer.Reply {
        try await server.request(
            "POST", "/v1/client/user-authenticators/push/challenge",
            json: ["challengeId": challengeID, "publicKey": device.publicKey, "approved": true,
                   "signature": try device.sign(challengeID)],
            headers: server.tenantAuth)
    }

    @Test func `an answer after the challenge expired is refused and changes nothing`() async throws {
        let server = try await LiveServer()
        let device = try await enrol(server, "alice")
        let (challengeID, token) = try await startPush(server, "alice")
        server.clock.advance(seconds: 121)
        let before = try await server.rowCounts()
        let reply = try await approve(server, device, challengeID)
        #expect(reply.status == 410 && reply.json["errorCode"] as? String == "challenge_closed")
        #expect(try await server.rowCounts() == before)
        let verify = try await server.request(
            "POST", "/v1/client/verify/push", json: ["challengeId": challengeID], headers: ["Authorization": "Bearer \(token)"])
        #expect(verify.json["isConsumed"] as? Bool == true && verify.json["isVerified"] as? Bool == false)
        let pending = try await server.request(
            "GET", "/v1/client/user-authenticators/push/challenge?publicKey=\(device.query)", headers: server.tenantAuth)
        #expect(pending.status == 200 && pending.json["challengeId"] is NSNull)
        await server.stop()
    }

    @Test func `an answer just before expiry is accepted`() async throws {
        let server = try await LiveServer()
        let device = try await enrol(server, "bob")
        let (challengeID, _) = try await startPush(server, "bob")
        server.clock.advance(seconds: 119)
        #expect(try await approve(server, device, challengeID).status == 200)
        await server.stop()
    }

    @Test func `an enrolment token that expired is refused with expired_token`() async throws {
        let server = try await LiveServer()
        let (token, _) = try await server.track("carol", "enrol", scope: "add:authenticators")
        server.clock.advance(seconds: 601)
        let before = try await server.rowCounts()
        let reply = try await server.request(
            "POST", "/v1/client/user-authenticators/push", json: ["publicKey": TestDevice().publicKey],
            headers: ["Authorization": "Bearer \(token)"])
        #expect(reply.status == 401 && reply.json["errorCode"] as? String == "expired_token")
        #expect(try await server.rowCounts() == before)
        await server.stop()
    }

    @Test func `a lapsed push credential gets no challenges and answers invalid_credential until renewed or re-enrolled`() async throws {
        let server = try await LiveServer()
        let store = try SQLiteStore(path: server.databasePath)
        _ = try await TenantDirectory(store: store, clock: .system, masterKey: Array(repeating: 0, count: 32))
            .updateSettings(tenantID: server.tenant.tenant.id) { $0.pushCredentialLifetimeSeconds = 3600 }
        await store.close()
        let device = try await enrol(server, "dave")
        let credential = try await server.request(
            "GET", "/v1/client/user-authenticators/push?publicKey=\(device.query)", headers: server.tenantAuth)
        #expect(credential.json["expiresAt"] as? String != nil)
        server.clock.advance(seconds: 3601)
        let lapsed = try await server.request(
            "GET", "/v1/client/user-authenticators/push?publicKey=\(device.query)", headers: server.tenantAuth)
        #expect(lapsed.status == 401 && lapsed.json["errorCode"] as? String == "invalid_credential")
        let (token, _) = try await server.track("dave")
        let start = try await server.request(
            "POST", "/v1/client/challenge/push", json: ["action": "signIn"], headers: ["Authorization": "Bearer \(token)"])
        #expect(start.status == 404, "no live push credential to challenge")
        // Re-enrolling the same key starts a new lease.
        _ = try await enrol(server, "dave", device)
        let renewed = try await server.request(
            "GET", "/v1/client/user-authenticators/push?publicKey=\(device.query)", headers: server.tenantAuth)
        #expect(renewed.status == 200)
        await server.stop()
    }

    @Test func `an update-credential nonce expires`() async throws {
        let server = try await LiveServer()
        let device = try await enrol(server, "erin")
        let nonce = try await server.request(
            "POST", "/v1/client/user-authenticators/push/sign?publicKey=\(device.query)", headers: server.tenantAuth)
        let id = try #require(nonce.json["challengeId"] as? String)
        let message = try #require(nonce.json["message"] as? String)
        server.clock.advance(seconds: 121)
        let reply = try await server.request(
            "PATCH", "/v1/client/user-authenticators/push",
            json: ["challengeId": id, "publicKey": device.publicKey, "signature": try device.sign(message), "resetExpiry": true],
            headers: server.tenantAuth)
        #expect(reply.status == 401 && reply.json["errorCode"] as? String == "invalid_signature")
        await server.stop()
    }

    @Test func `a QR challenge cannot be claimed after it expired, and the claim changes nothing`() async throws {
        let server = try await LiveServer()
        let device = TestDevice()
        let (token, _) = try await server.track("frank", "enrol", scope: "add:authenticators")
        let enrolled = try await server.request(
            "POST", "/v1/client/user-authenticators/qr-code", json: ["publicKey": device.publicKey],
            headers: ["Authorization": "Bearer \(token)"])
        #expect(enrolled.status == 200)
        let started = try await server.request(
            "POST", "/v1/client/challenge/qr-code", json: ["action": "signIn"], headers: server.tenantAuth)
        let challengeID = try #require(started.json["challengeId"] as? String)
        server.clock.advance(seconds: 121)
        let before = try await server.rowCounts()
        let claim = try await server.request(
            "POST", "/v1/client/user-authenticators/qr-code/challenge/claim",
            json: ["challengeId": challengeID, "publicKey": device.publicKey, "signature": try device.sign(challengeID)],
            headers: server.tenantAuth)
        #expect(claim.status == 410 && claim.json["errorCode"] as? String == "challenge_closed")
        #expect(try await server.rowCounts() == before)
        let poll = try await server.request(
            "POST", "/v1/client/verify/qr-code",
            json: ["challengeId": challengeID, "deviceCode": try #require(started.json["deviceCode"] as? String)],
            headers: server.tenantAuth)
        #expect(poll.json["isConsumed"] as? Bool == true && poll.json["isClaimed"] as? Bool == false)
        await server.stop()
    }
}

@Suite struct SweepTests {
    @Test func `the sweep removes challenges a day past expiry, anonymous unclaimed ones at expiry, and keeps the rest`() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("a.sqlite"))
        try await store.insertTenant(Tenant(id: "t", name: "T", secretHash: [1], secretVersion: 1, keyVersion: 1,
                                            settings: TenantSettings(), createdAt: 0), audit: nil)
        let challenges: [(id: String, expiry: Int64, user: String?)] = [
            ("old", 1_000, "u"), ("recent", 90_000_000, "u"), ("open", 200_000_000, "u"),
            ("anonymous-recent", 90_000_000, nil), ("anonymous-open", 200_000_000, nil),
        ]
        for (id, expiry, user) in challenges {
            var challenge = Challenge(id: id, tenantID: "t", kind: .qrCode, createdAt: 0, expiresAt: expiry)
            challenge.actionCode = "signIn"
            challenge.userID = user
            #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        }
        let removed = try await store.sweep(now: 100_000_000, challengesBefore: 100_000_000 - 86_400_000, eventsBefore: 0)
        #expect(removed == 2)
        #expect(try await store.challenge(tenantID: "t", id: "old") == nil)
        #expect(try await store.challenge(tenantID: "t", id: "anonymous-recent") == nil)
        #expect(try await store.challenge(tenantID: "t", id: "recent") != nil)
        #expect(try await store.challenge(tenantID: "t", id: "open") != nil)
        #expect(try await store.challenge(tenantID: "t", id: "anonymous-open") != nil)
        await store.close()
    }

    @Test func `a flood of anonymous QR starts leaves only the live ones once the sweeper runs after their expiry was counted`() async throws {
        let server = try await LiveServer()
        func start() async throws {
            let reply = try await server.request(
                "POST", "/v1/client/challenge/qr-code", json: ["action": "signIn"], headers: server.tenantAuth)
            #expect(reply.status == 200)
        }
        for _ in 0..<40 { try await start() }
        server.clock.advance(seconds: 601)
        for _ in 0..<3 { try await start() }
        #expect(try await server.rowCounts()["challenges"] == 43)
        let store = try SQLiteStore(path: server.databasePath)
        let sweeper = Sweeper(store: store, clock: server.clock.wallClock, logger: Logger(minimumLevel: .error, sink: { _ in }))
        // The sweeper deletes an expired anonymous challenge only once the metrics sampler counted its expiry (the
        // server's sampler paces itself on real time; this is its round after the clock moved).
        _ = try await store.countExpiredChallenges(through: server.clock.wallClock.nowMilliseconds())
        #expect(try await sweeper.sweepOnce() == 40)
        #expect(try await server.rowCounts()["challenges"] == 3)
        await store.close()
        await server.stop()
    }
}
