import AssentCrypto
import AssentWire
@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing

/// The approval-factor policy: push and QR approvals must carry a PowerAuth signature with the required factors.
@Suite(.serialized) struct PowerAuthApprovalTests {
    private static let approvePath = "/v1/client/user-authenticators/push/challenge"

    private func setUp(_ server: LiveServer, _ user: String) async throws -> (TestDevice, PowerAuthTestDevice) {
        _ = try await server.application.tenantDirectory.updateSettings(tenantID: server.tenant.tenant.id) {
            $0.requiredApprovalFactor = .possessionBiometry
        }
        let push = TestDevice()
        let (token, _) = try await server.track(user, "enrol", scope: "add:authenticators")
        let enrolled = try await server.request(
            "POST", "/v1/client/user-authenticators/push", json: ["publicKey": push.publicKey], headers: ["Authorization": "Bearer \(token)"])
        try #require(enrolled.status == 200)
        return (push, try await PowerAuthTestDevice.activate(server, user: user))
    }

    private func startPush(_ server: LiveServer, _ user: String) async throws -> String {
        let (token, _) = try await server.track(user)
        let reply = try await server.request(
            "POST", "/v1/client/challenge/push", json: ["action": "signIn"], headers: ["Authorization": "Bearer \(token)"])
        return try #require(reply.json["challengeId"] as? String)
    }

    private func answerBody(_ device: TestDevice, _ challengeID: String, approved: Bool) throws -> [UInt8] {
        let object: [String: Any] = ["challengeId": challengeID, "publicKey": device.publicKey, "approved": approved,
                                     "signature": try device.sign(challengeID)]
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    private func isPending(_ server: LiveServer, _ device: TestDevice) async throws -> Bool {
        let pending = try await server.request(
            "GET", "/v1/client/user-authenticators/push/challenge?publicKey=\(device.query)", headers: server.tenantAuth)
        return pending.json["challengeId"] is String
    }

    @Test func `a push approval under a possession_biometry policy needs a biometry-signed header`() async throws {
        let server = try await LiveServer()
        let (push, powerAuth) = try await setUp(server, "ivy")
        let challengeID = try await startPush(server, "ivy")
        let body = try answerBody(push, challengeID, approved: true)

        let without = try await server.requestRaw("POST", Self.approvePath, body: body, headers: server.tenantAuth)
        #expect(without.status == 403 && without.json["errorCode"] as? String == "factor_required")
        #expect(try await isPending(server, push))

        let possessionOnly = try powerAuth.header(uriID: Self.approvePath, body: body, type: .possession)
        let weak = try await server.requestRaw(
            "POST", Self.approvePath, body: body, headers: server.tenantAuth.merging([PowerAuthAuthorizationHeader.name: possessionOnly]) { $1 })
        #expect(weak.status == 403 && weak.json["errorCode"] as? String == "factor_required")
        #expect(try await isPending(server, push))

        // A biometry signature over another body (e.g. a denial) does not carry over to this approval.
        let otherBody = try answerBody(push, challengeID, approved: false)
        let misplaced = try powerAuth.header(uriID: Self.approvePath, body: otherBody, type: .possessionBiometry)
        let wrongBody = try await server.requestRaw(
            "POST", Self.approvePath, body: body, headers: server.tenantAuth.merging([PowerAuthAuthorizationHeader.name: misplaced]) { $1 })
        #expect(wrongBody.status == 401 && wrongBody.json["errorCode"] as? String == "invalid_signature")
        #expect(try await isPending(server, push))

        let biometry = try powerAuth.header(uriID: Self.approvePath, body: body, type: .possessionBiometry)
        let approved = try await server.requestRaw(
            "POST", Self.approvePath, body: body, headers: server.tenantAuth.merging([PowerAuthAuthorizationHeader.name: biometry]) { $1 })
        #expect(approved.status == 200 && approved.json["isVerified"] as? Bool == true)
        #expect(try await !isPending(server, push))
        await server.stop()
    }

    @Test func `a denial needs no factor, and another user's activation cannot approve`() async throws {
        let server = try await LiveServer()
        let (push, _) = try await setUp(server, "jack")
        let (_, strangers) = try await setUp(server, "kate")
        let challengeID = try await startPush(server, "jack")
        let body = try answerBody(push, challengeID, approved: true)
        let foreign = try strangers.header(uriID: Self.approvePath, body: body, type: .possessionKnowledgeBiometry)
        let refused = try await server.requestRaw(
            "POST", Self.approvePath, body: body, headers: server.tenantAuth.merging([PowerAuthAuthorizationHeader.name: foreign]) { $1 })
        #expect(refused.status == 401 && refused.json["errorCode"] as? String == "invalid_signature")
        #expect(try await isPending(server, push))
        let denied = try await server.requestRaw("POST", Self.approvePath, body: try answerBody(push, challengeID, approved: false),
                                                 headers: server.tenantAuth)
        #expect(denied.status == 200 && denied.json["isVerified"] as? Bool == false)
        await server.stop()
    }

    @Test func `a QR approval under the policy needs the header too`() async throws {
        let server = try await LiveServer()
        _ = try await server.application.tenantDirectory.updateSettings(tenantID: server.tenant.tenant.id) {
            $0.requiredApprovalFactor = .possessionBiometry
        }
        let qr = TestDevice()
        let (token, _) = try await server.track("liam", "enrol", scope: "add:authenticators")
        #expect(try await server.request("POST", "/v1/client/user-authenticators/qr-code", json: ["publicKey": qr.publicKey],
                                         headers: ["Authorization": "Bearer \(token)"]).status == 200)
        let powerAuth = try await PowerAuthTestDevice.activate(server, user: "liam")
        let started = try await server.request("POST", "/v1/client/challenge/qr-code", json: ["action": "signIn"], headers: server.tenantAuth)
        let challengeID = try #require(started.json["challengeId"] as? String)
        let claimed = try await server.request(
            "POST", "/v1/client/user-authenticators/qr-code/challenge/claim",
            json: ["challengeId": challengeID, "publicKey": qr.publicKey, "signature": try qr.sign(challengeID)], headers: server.tenantAuth)
        try #require(claimed.status == 200, "\(claimed.json)")
        let path = "/v1/client/user-authenticators/qr-code/challenge"
        let body = try answerBody(qr, challengeID, approved: true)
        let without = try await server.requestRaw("POST", path, body: body, headers: server.tenantAuth)
        #expect(without.status == 403 && without.json["errorCode"] as? String == "factor_required")
        let header = try powerAuth.header(uriID: path, body: body, type: .possessionKnowledgeBiometry)
        let approved = try await server.requestRaw(
            "POST", path, body: body, headers: server.tenantAuth.merging([PowerAuthAuthorizationHeader.name: header]) { $1 })
        #expect(approved.status == 200 && approved.json["isVerified"] as? Bool == true)
        await server.stop()
    }

    @Test func `an action's approval-factor rule applies to that action only`() async throws {
        let server = try await LiveServer()
        _ = try await server.application.tenantDirectory.updateSettings(tenantID: server.tenant.tenant.id) {
            $0.approvalFactorRules = ["pay": .possessionBiometry]
        }
        let push = TestDevice()
        let (token, _) = try await server.track("mia", "enrol", scope: "add:authenticators")
        #expect(try await server.request("POST", "/v1/client/user-authenticators/push", json: ["publicKey": push.publicKey],
                                         headers: ["Authorization": "Bearer \(token)"]).status == 200)
        let powerAuth = try await PowerAuthTestDevice.activate(server, user: "mia")
        func start(_ action: String) async throws -> String {
            let (token, _) = try await server.track("mia", action)
            let reply = try await server.request(
                "POST", "/v1/client/challenge/push", json: ["action": action], headers: ["Authorization": "Bearer \(token)"])
            return try #require(reply.json["challengeId"] as? String)
        }
        let signIn = try await start("signIn")
        let plain = try await server.requestRaw("POST", Self.approvePath, body: try answerBody(push, signIn, approved: true),
                                                headers: server.tenantAuth)
        #expect(plain.status == 200 && plain.json["isVerified"] as? Bool == true)

        let pay = try await start("pay")
        let body = try answerBody(push, pay, approved: true)
        let without = try await server.requestRaw("POST", Self.approvePath, body: body, headers: server.tenantAuth)
        #expect(without.status == 403 && without.json["errorCode"] as? String == "factor_required")
        let header = try powerAuth.header(uriID: Self.approvePath, body: body, type: .possessionBiometry)
        let approved = try await server.requestRaw(
            "POST", Self.approvePath, body: body, headers: server.tenantAuth.merging([PowerAuthAuthorizationHeader.name: header]) { $1 })
        #expect(approved.status == 200 && approved.json["isVerified"] as? Bool == true)
        await server.stop()
    }
}
