import AssentCrypto
@testable import AssentServerCore
import AssentTestSupport
import AssentWire
import Foundation
import Testing

/// A credential's signature scheme against a real server with a manual clock: a bound credential never falls back to
/// Authsignal's messages (no downgrade), and a removal signature is accepted for its window and the next, once.
@Suite(.serialized) struct BoundSignatureTests {
    private static let push = "/v1/client/user-authenticators/push"

    /// Enrols `device` for `user` (bound when `scheme` says so) and returns the credential's id.
    private func enrol(_ server: LiveServer, _ user: String, _ device: TestDevice, scheme: String? = "bound") async throws -> String {
        let (token, _) = try await server.track(user, "enrol", scope: "add:authenticators")
        var body: [String: Any] = ["publicKey": device.publicKey]
        body["signatureScheme"] = scheme
        let reply = try await server.request("POST", Self.push, json: body, headers: ["Authorization": "Bearer \(token)"])
        #expect(reply.status == 200)
        return try #require(reply.json["userAuthenticatorId"] as? String)
    }

    private func startPush(_ server: LiveServer, _ user: String) async throws -> String {
        let (token, _) = try await server.track(user)
        let reply = try await server.request(
            "POST", "/v1/client/challenge/push", json: ["action": "signIn"], headers: ["Authorization": "Bearer \(token)"])
        return try #require(reply.json["challengeId"] as? String)
    }

    private func answer(_ server: LiveServer, _ body: [String: Any]) async throws -> LiveServer.Reply {
        try await server.request("POST", Self.push + "/challenge", json: body, headers: server.tenantAuth)
    }

    private func remove(_ server: LiveServer, _ device: TestDevice, _ signature: String) async throws -> LiveServer.Reply {
        try await server.request(
            "POST", Self.push + "/remove", json: ["publicKey": device.publicKey, "signature": signature],
            headers: server.tenantAuth)
    }

    @Test func `a bound credential's bare answer is refused and changes nothing, its bound answer is recorded`() async throws {
        let server = try await LiveServer()
        let device = TestDevice()
        let credential = try await enrol(server, "alice", device)
        let challenge = try await startPush(server, "alice")
        let deny = try device.sign(SignedMessage.decision(
            credentialId: credential, challengeId: challenge, approved: false, verificationCode: nil))
        let before = try await server.rowCounts()
        let refused: [[String: Any]] = [
            // Authsignal's form: the signature over the challenge id only.
            ["approved": true, "signature": try device.sign(challenge)],
            ["approved": true, "signature": try device.sign(challenge), "boundSignature": deny],
            // The decline's bound signature without boundSignature, the decision flipped.
            ["approved": true, "signature": deny],
            // The decline's bound signature in both fields but without its own credential's id in the message.
            ["approved": false, "signature": try device.sign(challenge), "boundSignature": try device.sign(
                SignedMessage.decision(credentialId: "other", challengeId: challenge, approved: false, verificationCode: nil))],
        ]
        for body in refused {
            let reply = try await answer(server, body.merging(["challengeId": challenge, "publicKey": device.publicKey]) { a, _ in a })
            #expect(reply.status == 401 && reply.json["errorCode"] as? String == "invalid_signature", "\(body.keys)")
        }
        #expect(try await server.rowCounts() == before)
        let declined = try await answer(server, [
            "challengeId": challenge, "publicKey": device.publicKey, "approved": false, "signature": deny,
            "boundSignature": deny])
        #expect(declined.status == 200 && declined.json["isVerified"] as? Bool == false)
        await server.stop()
    }

    @Test func `a compatible credential still answers with Authsignal's message`() async throws {
        let server = try await LiveServer()
        let device = TestDevice()
        _ = try await enrol(server, "bob", device, scheme: nil)
        let challenge = try await startPush(server, "bob")
        let reply = try await answer(server, [
            "challengeId": challenge, "publicKey": device.publicKey, "approved": true, "signature": try device.sign(challenge)])
        #expect(reply.status == 200 && reply.json["isVerified"] as? Bool == true)
        await server.stop()
    }

    @Test func `a bound removal verifies for its window and the next only, and removes once`() async throws {
        let server = try await LiveServer()
        let device = TestDevice()
        var credential = try await enrol(server, "carol", device)
        let signedAt = server.clock.nowSeconds
        let removal = try device.sign(SignedMessage.removal(credentialId: credential, kind: .push, unixSeconds: signedAt))
        // Authsignal's window message and another kind's removal are not this credential's.
        #expect(try await remove(server, device, try device.sign(SignedMessage.timeWindow(unixSeconds: signedAt))).status == 401)
        #expect(try await remove(server, device, try device.sign(
            SignedMessage.removal(credentialId: credential, kind: .device, unixSeconds: signedAt))).status == 401)
        // Two windows on it has lapsed; one window on it still removes.
        server.clock.advance(seconds: 1200)
        #expect(try await remove(server, device, removal).json["errorCode"] as? String == "invalid_signature")
        credential = try await enrol(server, "carol", device)
        let fresh = try device.sign(SignedMessage.removal(
            credentialId: credential, kind: .push, unixSeconds: server.clock.nowSeconds - 600))
        #expect(try await remove(server, device, fresh).status == 200)
        // Enrolled again (a new id): the same removal is refused, also with s negated (ECDSA's other valid form).
        credential = try await enrol(server, "carol", device)
        let replay = try await remove(server, device, fresh)
        #expect(replay.status == 401 && replay.json["errorCode"] as? String == "invalid_signature")
        let negated = try Self.negatingS(fresh)
        #expect(try await remove(server, device, negated).status == 401)
        await server.stop()
    }

    @Test func `a removal signature of a compatible credential removes once, however it is re-encoded`() async throws {
        let server = try await LiveServer()
        let device = TestDevice()
        _ = try await enrol(server, "dave", device, scheme: nil)
        let removal = try device.sign(SignedMessage.timeWindow(unixSeconds: server.clock.nowSeconds))
        #expect(try await remove(server, device, removal).status == 200)
        _ = try await enrol(server, "dave", device, scheme: nil)
        let before = try await server.rowCounts()
        let negated = try Self.negatingS(removal)
        for replay in [removal, negated] {
            let reply = try await remove(server, device, replay)
            #expect(reply.status == 401 && reply.json["errorCode"] as? String == "invalid_signature")
        }
        #expect(try await server.rowCounts() == before)
        let own = try device.sign(SignedMessage.timeWindow(unixSeconds: server.clock.nowSeconds))
        #expect(try await remove(server, device, own).status == 200)
        await server.stop()
    }

    /// The same signature as `(r, n − s)`: valid for the same message and key, different bytes.
    static func negatingS(_ signature: String) throws -> String {
        let der = try #require(Base64.decode(signature))
        let raw = try #require(ECDSASignature.raw(fromDER: der))
        let n: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]
        var negated = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for i in (0..<32).reversed() {
            let difference = Int(n[i]) - Int(raw[32 + i]) - borrow
            negated[i] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return Base64.encode(try #require(ECDSASignature.der(fromRaw: Array(raw[0..<32]) + negated)))
    }
}
