import AssentCrypto
import AssentWire
@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing

/// PowerAuth activations and signature verification against a real assentd on loopback.
@Suite(.serialized) struct PowerAuthServerTests {
    let body = Array(#"{"amount":100,"to":"bob"}"#.utf8)

    @Test func `an activation's signed request verifies at the backend endpoint, once`() async throws {
        let server = try await LiveServer()
        let device = try await PowerAuthTestDevice.activate(server, user: "alice")
        let header = try device.header(uriID: "/payments", body: body, type: .possessionKnowledge)
        let reply = try await server.verifySignature(header, uriID: "/payments", body: body)
        #expect(reply.status == 200)
        #expect(reply.json["valid"] as? Bool == true)
        #expect(reply.json["activationId"] as? String == device.activationID)
        #expect(reply.json["userId"] as? String == "alice")
        #expect(reply.json["activationStatus"] as? String == "ACTIVE")
        #expect(reply.json["signatureType"] as? String == "possession_knowledge")
        #expect(reply.json["remainingAttempts"] as? Int == 5)
        // The same signature again (a replay) no longer verifies, and costs nothing: its counter value is used up, so
        // not even its possession component verifies any more.
        let replay = try await server.verifySignature(header, uriID: "/payments", body: body)
        #expect(replay.json["valid"] as? Bool == false && replay.json["remainingAttempts"] as? Int == 5)
        // Another body, method or uriId than signed does not verify.
        let next = try device.header(uriID: "/payments", body: body, type: .possession)
        #expect(try await server.verifySignature(next, uriID: "/payments", body: Array("{}".utf8)).json["valid"] as? Bool == false)
        #expect(try await server.verifySignature(next, method: "PUT", uriID: "/payments", body: body).json["valid"] as? Bool == false)
        #expect(try await server.verifySignature(next, uriID: "/other", body: body).json["valid"] as? Bool == false)
        #expect(try await server.verifySignature(next, uriID: "/payments", body: body).json["valid"] as? Bool == true)
        // A GET signs its canonical query.
        let query = PowerAuthRequestData.canonicalQuery(rawQuery: "b=2&a=1")!
        let get = try device.header(method: "GET", uriID: "/accounts", body: Array(query.utf8), type: .possessionBiometry)
        #expect(try await server.verifySignature(get, method: "GET", uriID: "/accounts", body: Array("a=1&b=2".utf8))
            .json["valid"] as? Bool == true)
        // Or the backend hands over the raw query and the server canonicalizes it.
        let rawQuery = "z=%C3%A9t%C3%A9&a=x+y&a=1"
        let get2 = try device.header(method: "GET", uriID: "/accounts",
                                     body: Array(PowerAuthRequestData.canonicalQuery(rawQuery: rawQuery)!.utf8), type: .possession)
        let byQuery = try await server.request(
            "POST", "/v1/signatures/verify",
            json: ["method": "GET", "uriId": "/accounts", "query": rawQuery, "authorization": get2], headers: server.secretAuth)
        #expect(byQuery.json["valid"] as? Bool == true)
        // Malformed headers are a 400; another tenant's secret cannot see the activation.
        let malformed = try await server.verifySignature("PowerAuth pa_version=\"9.9\"", uriID: "/payments", body: body)
        #expect(malformed.status == 400 && malformed.json["errorCode"] as? String == "invalid_request")
        await server.stop()
    }

    @Test func `five wrong passwords block the activation, and the right one is refused until unblocked`() async throws {
        let server = try await LiveServer()
        let device = try await PowerAuthTestDevice.activate(server, user: "bob")
        for attempt in 1...5 {
            let header = try device.header(uriID: "/pay", body: body, type: .possessionKnowledge,
                                           knowledgeKey: PowerAuthTestDevice.wrongKnowledgeKey)
            let reply = try await server.verifySignature(header, uriID: "/pay", body: body)
            #expect(reply.json["valid"] as? Bool == false)
            #expect(reply.json["remainingAttempts"] as? Int == 5 - attempt)
            #expect(reply.json["activationStatus"] as? String == (attempt < 5 ? "ACTIVE" : "BLOCKED"))
        }
        let right = try await server.verifySignature(
            try device.header(uriID: "/pay", body: body, type: .possessionKnowledge), uriID: "/pay", body: body)
        #expect(right.json["valid"] as? Bool == false && right.json["activationStatus"] as? String == "BLOCKED")
        // Possession alone is refused too while blocked.
        #expect(try await server.verifySignature(try device.header(uriID: "/pay", body: body, type: .possession), uriID: "/pay", body: body)
            .json["valid"] as? Bool == false)
        let got = try await server.request("GET", "/v1/activations/\(device.activationID)", headers: server.secretAuth)
        #expect(got.json["activationStatus"] as? String == "BLOCKED" && got.json["blockedReason"] as? String == "MAX_FAILED_ATTEMPTS")
        let unblocked = try await server.request("POST", "/v1/activations/\(device.activationID)/unblock", headers: server.secretAuth)
        #expect(unblocked.status == 200 && unblocked.json["activationStatus"] as? String == "ACTIVE")
        #expect(unblocked.json["failedAttempts"] as? Int == 0)
        // The five counted failures moved the server's counter past the values they used; the two refused while
        // blocked did not, so the device is 2 signatures ahead: inside the window.
        let after = try await server.verifySignature(
            try device.header(uriID: "/pay", body: body, type: .possessionKnowledge), uriID: "/pay", body: body)
        #expect(after.json["valid"] as? Bool == true && after.json["remainingAttempts"] as? Int == 5)
        await server.stop()
    }

    @Test func `failures whose possession component does not verify are not counted, and a success resets the count`() async throws {
        let server = try await LiveServer()
        let device = try await PowerAuthTestDevice.activate(server, user: "pat")
        for _ in 1...6 {
            var wrong = try PowerAuthAuthorizationHeader(parsing: try device.header(uriID: "/p", body: body, type: .possession))
            wrong.signature = Base64.encode([UInt8](repeating: 1, count: 16))
            #expect(try await server.verifySignature(wrong.headerValue, uriID: "/p", body: body).json["remainingAttempts"] as? Int == 5)
        }
        for _ in 1...2 {
            _ = try await server.verifySignature(
                try device.header(uriID: "/p", body: body, type: .possessionBiometry, knowledgeKey: nil), uriID: "/p", body: Array("x".utf8))
        }
        // Made-up signatures of every type, and knowledge-only ones with a wrong key (no possession component), are
        // not counted either.
        for type in PowerAuthSignatureType.allCases {
            var random = try PowerAuthAuthorizationHeader(parsing: try device.header(uriID: "/p", body: body, type: type, advance: false))
            random.signature = Base64.encode(SecureRandom.bytes(16 * type.factors.count))
            #expect(try await server.verifySignature(random.headerValue, uriID: "/p", body: body).json["remainingAttempts"] as? Int == 5)
        }
        let knowledgeOnly = try device.header(uriID: "/p", body: body, type: .knowledge, knowledgeKey: PowerAuthTestDevice.wrongKnowledgeKey)
        #expect(try await server.verifySignature(knowledgeOnly, uriID: "/p", body: body).json["remainingAttempts"] as? Int == 5)
        // One wrong PIN by the device itself counts; the success below resets it.
        let wrongPIN = try device.header(uriID: "/p", body: body, type: .possessionKnowledge, knowledgeKey: PowerAuthTestDevice.wrongKnowledgeKey)
        #expect(try await server.verifySignature(wrongPIN, uriID: "/p", body: body).json["remainingAttempts"] as? Int == 4)
        let good = try await server.verifySignature(try device.header(uriID: "/p", body: body, type: .possessionKnowledge), uriID: "/p", body: body)
        #expect(good.json["valid"] as? Bool == true && good.json["remainingAttempts"] as? Int == 5)
        await server.stop()
    }

    @Test func `a device 19 signatures ahead still verifies, 20 ahead does not, and the status blob shows why`() async throws {
        let server = try await LiveServer()
        let ahead19 = try await PowerAuthTestDevice.activate(server, user: "carol")
        ahead19.counterData = PowerAuthCounter.advance(ahead19.counterData, by: 19)
        #expect(try await server.verifySignature(try ahead19.header(uriID: "/x", body: body, type: .possession), uriID: "/x", body: body)
            .json["valid"] as? Bool == true)

        let ahead20 = try await PowerAuthTestDevice.activate(server, user: "dave")
        let serverCounter = ahead20.counterData
        ahead20.counterData = PowerAuthCounter.advance(ahead20.counterData, by: 20)
        #expect(try await server.verifySignature(try ahead20.header(uriID: "/x", body: body, type: .possession), uriID: "/x", body: body)
            .json["valid"] as? Bool == false)
        // The status blob decrypts with the device's transport key; its counter hash is that of the server's
        // counter, which the device (21 ahead now) cannot reach by walking forward: the deadlock case.
        let challenge = SecureRandom.bytes(16)
        let reply = try await server.request(
            "POST", "/v1/client/activations/status", json: ["activationId": ahead20.activationID, "challenge": Base64.encode(challenge)],
            headers: server.tenantAuth)
        #expect(reply.status == 200)
        let status = try PowerAuthStatusBlob.decrypt(
            try #require(Base64.decode(reply.json["encryptedStatusBlob"] as? String ?? "")), transportKey: ahead20.keys.transport,
            challenge: challenge, nonce: try #require(Base64.decode(reply.json["nonce"] as? String ?? "")))
        #expect(status.status == ActivationStatus.active.code && status.lookAhead == 20 && status.maxFailedAttempts == 5)
        #expect(status.counterByte == 0 && status.failedAttempts == 0)
        #expect(status.counterDataHash == (try PowerAuthStatusBlob.counterDataHash(transportKey: ahead20.keys.transport, counterData: serverCounter)))
        #expect(try PowerAuthCounter.distance(from: ahead20.counterData, toHash: status.counterDataHash,
                                              transportKey: ahead20.keys.transport, limit: 20) == nil)
        // Unknown activation.
        let unknown = try await server.request(
            "POST", "/v1/client/activations/status", json: ["activationId": UUID().uuidString.lowercased(), "challenge": Base64.encode(challenge)],
            headers: server.tenantAuth)
        #expect(unknown.status == 404 && unknown.json["errorCode"] as? String == "activation_not_found")
        // The request names its tenant: without one it is unauthorized, and another tenant does not see the activation.
        let request: [String: Any] = ["activationId": ahead20.activationID, "challenge": Base64.encode(challenge)]
        let anonymous = try await server.request("POST", "/v1/client/activations/status", json: request)
        #expect(anonymous.status == 401 && anonymous.json["errorCode"] as? String == "unauthorized")
        let other = try await server.application.tenantDirectory.create(name: "other")
        let otherAuth = ["Authorization": "Basic " + Base64.encodeURL(Array((other.tenant.id + ":").utf8))]
        let foreign = try await server.request("POST", "/v1/client/activations/status", json: request, headers: otherAuth)
        #expect(foreign.status == 404 && foreign.json["errorCode"] as? String == "activation_not_found")
        await server.stop()
    }

    @Test func `sixteen concurrent requests signed with the same counter value: exactly one is accepted`() async throws {
        let server = try await LiveServer()
        let device = try await PowerAuthTestDevice.activate(server, user: "erin")
        for type in [PowerAuthSignatureType.possession, .possessionKnowledge] {
            let headers = try (0..<16).map { _ in
                try device.header(uriID: "/transfer", body: body, type: type, advance: false)
            }
            device.counterData = PowerAuthCounter.next(device.counterData)
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for header in headers {
                    group.addTask { try await server.verifySignature(header, uriID: "/transfer", body: body).json["valid"] as? Bool == true }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count == 16)
            #expect(results.filter { $0 }.count == 1, "\(type): \(results.filter { $0 }.count) accepted")
            // The fifteen losers are not counted: their counter value is used up, so nothing of them verifies.
            let stored = try await server.request("GET", "/v1/activations/\(device.activationID)", headers: server.secretAuth)
            #expect(stored.json["activationStatus"] as? String == "ACTIVE" && stored.json["failedAttempts"] as? Int == 0)
        }
        // The counter moved exactly twice: the next signature is at distance 0.
        let next = try await server.application.activations.activation(tenantID: server.tenant.tenant.id, id: device.activationID)
        #expect(next.counter == 2)
        #expect(next.counterData == device.counterData)
        await server.stop()
    }

    @Test func `vault unlock releases the vault key after possession_knowledge; a wrong password fails and counts`() async throws {
        let server = try await LiveServer()
        let device = try await PowerAuthTestDevice.activate(server, user: "frank")
        let unlockBody = Array(#"{"reason":"ADD_BIOMETRY"}"#.utf8)
        func unlock(_ header: String?, auth: [String: String] = server.tenantAuth) async throws -> LiveServer.Reply {
            var headers = auth
            if let header { headers[PowerAuthAuthorizationHeader.name] = header }
            return try await server.requestRaw("POST", "/v1/client/vault/unlock", body: unlockBody, headers: headers)
        }
        func failedAttempts() async throws -> Int? {
            try await server.request("GET", "/v1/activations/\(device.activationID)", headers: server.secretAuth).json["failedAttempts"] as? Int
        }
        let wrong = try device.header(uriID: PowerAuthURI.vaultUnlock, body: unlockBody, type: .possessionKnowledge,
                                      knowledgeKey: PowerAuthTestDevice.wrongKnowledgeKey)
        let refused = try await unlock(wrong)
        #expect(refused.status == 401 && refused.json["errorCode"] as? String == "invalid_signature")
        #expect(try await failedAttempts() == 1)
        // The same wrong-PIN request again is refused without counting: its counter value is used up.
        #expect(try await unlock(wrong).status == 401)
        #expect(try await failedAttempts() == 1)
        // Possession alone is not enough (and costs nothing).
        let weak = try device.header(uriID: PowerAuthURI.vaultUnlock, body: unlockBody, type: .possession)
        let weakReply = try await unlock(weak)
        #expect(weakReply.status == 403 && weakReply.json["errorCode"] as? String == "factor_required")
        #expect(try await unlock(nil).status == 401)
        // The request names its tenant: without a tenant, or as another tenant, a right signature is refused uncounted.
        let anonymous = try await unlock(try device.header(uriID: PowerAuthURI.vaultUnlock, body: unlockBody, type: .possessionKnowledge), auth: [:])
        #expect(anonymous.status == 401 && anonymous.json["errorCode"] as? String == "unauthorized")
        let other = try await server.application.tenantDirectory.create(name: "other")
        let foreign = try await unlock(
            try device.header(uriID: PowerAuthURI.vaultUnlock, body: unlockBody, type: .possessionKnowledge),
            auth: ["Authorization": "Basic " + Base64.encodeURL(Array((other.tenant.id + ":").utf8))])
        #expect(foreign.status == 401 && foreign.json["errorCode"] as? String == "invalid_signature")
        #expect(try await failedAttempts() == 1)

        let right = try device.header(uriID: PowerAuthURI.vaultUnlock, body: unlockBody, type: .possessionKnowledge)
        let unlocked = try await unlock(right)
        #expect(unlocked.status == 200)
        let encrypted = try #require(Base64.decode(unlocked.json["encryptedVaultEncryptionKey"] as? String ?? ""))
        let vault = try AES.CBC.decrypt(encrypted, key: device.keys.transport, iv: [UInt8](repeating: 0, count: 16))
        #expect(vault == device.keys.vault)
        #expect(try await server.request("GET", "/v1/activations/\(device.activationID)", headers: server.secretAuth)
            .json["failedAttempts"] as? Int == 0)
        await server.stop()
    }

    @Test func `the backend commits, blocks, unblocks, lists and removes activations`() async throws {
        let server = try await LiveServer()
        _ = try await server.application.tenantDirectory.updateSettings(tenantID: server.tenant.tenant.id) {
            $0.requireActivationCommit = true
        }
        let device = try await PowerAuthTestDevice.activate(server, user: "gina")
        let path = "/v1/activations/\(device.activationID)"
        #expect(try await server.request("GET", path, headers: server.secretAuth).json["activationStatus"] as? String == "PENDING_COMMIT")
        #expect(try await server.verifySignature(try device.header(uriID: "/a", body: body, type: .possession), uriID: "/a", body: body)
            .json["valid"] as? Bool == false)
        #expect(try await server.request("POST", path + "/commit", headers: server.secretAuth).json["activationStatus"] as? String == "ACTIVE")
        #expect(try await server.request("POST", path + "/commit", headers: server.secretAuth).status == 409)
        #expect(try await server.verifySignature(try device.header(uriID: "/a", body: body, type: .possession), uriID: "/a", body: body)
            .json["valid"] as? Bool == true)
        let blocked = try await server.request("POST", path + "/block", headers: server.secretAuth)
        #expect(blocked.json["activationStatus"] as? String == "BLOCKED" && blocked.json["blockedReason"] as? String == "BLOCKED_BY_BACKEND")
        #expect(try await server.request("POST", path + "/unblock", headers: server.secretAuth).json["activationStatus"] as? String == "ACTIVE")
        let list = try await server.request("GET", "/v1/users/gina/activations", headers: server.secretAuth)
        #expect((list.json["activations"] as? [[String: Any]])?.map { $0["activationId"] as? String } == [device.activationID])
        let removed = try await server.request("DELETE", path, headers: server.secretAuth)
        #expect(removed.json["activationStatus"] as? String == "REMOVED")
        #expect(try await server.request("POST", path + "/unblock", headers: server.secretAuth).status == 409)
        #expect(try await server.verifySignature(try device.header(uriID: "/a", body: body, type: .possession), uriID: "/a", body: body)
            .json["activationStatus"] as? String == "REMOVED")
        #expect(try await server.request("GET", "/v1/activations/\(UUID().uuidString.lowercased())", headers: server.secretAuth).status == 404)
        #expect(try await server.request("GET", path, headers: server.tenantAuth).status == 401)
        await server.stop()
    }

    @Test func `an enrolment token creates one activation and needs the add-authenticators scope`() async throws {
        let server = try await LiveServer()
        let (token, _) = try await server.track("hank", "activate", scope: "add:authenticators")
        let key = Base64.encode(P256.PrivateKey().publicKey.x962Uncompressed)
        let auth = ["Authorization": "Bearer \(token)"]
        #expect(try await server.request("POST", "/v1/client/activations", json: ["devicePublicKey": key], headers: auth).status == 200)
        let again = try await server.request("POST", "/v1/client/activations", json: ["devicePublicKey": key], headers: auth)
        #expect(again.status == 403)
        let (plain, _) = try await server.track("hank")
        #expect(try await server.request("POST", "/v1/client/activations", json: ["devicePublicKey": key],
                                         headers: ["Authorization": "Bearer \(plain)"]).status == 403)
        let (other, _) = try await server.track("hank", "activate", scope: "add:authenticators")
        let bad = try await server.request("POST", "/v1/client/activations", json: ["devicePublicKey": "AAAA"],
                                           headers: ["Authorization": "Bearer \(other)"])
        #expect(bad.status == 400 && bad.json["errorCode"] as? String == "invalid_request")
        #expect(try await server.request("POST", "/v1/client/activations", json: ["devicePublicKey": key]).status == 401)
        await server.stop()
    }

    @Test func `another application key is refused and not counted; version 3.0 decimal signatures verify only where allowed`() async throws {
        let server = try await LiveServer()
        let device = try await PowerAuthTestDevice.activate(server, user: "iris")
        // Even a wrong PIN (whose possession component verifies) under another application key counts nothing.
        var foreign = try PowerAuthAuthorizationHeader(parsing: try device.header(
            uriID: "/k", body: body, type: .possessionKnowledge, knowledgeKey: PowerAuthTestDevice.wrongKnowledgeKey))
        foreign.applicationKey = Base64.encode([UInt8](repeating: 9, count: 16))
        let refused = try await server.verifySignature(foreign.headerValue, uriID: "/k", body: body)
        #expect(refused.json["valid"] as? Bool == false && refused.json["remainingAttempts"] as? Int == 5)

        // A 3.0 client signs in the decimal format with the same keys and counter.
        func decimal(_ knowledgeKey: [UInt8]? = nil) throws -> String {
            let nonce = SecureRandom.bytes(16)
            let data = PowerAuthRequestData.normalized(method: "POST", uriID: "/k", nonce: nonce, body: body,
                                                       applicationSecret: device.applicationSecret)
            var keys = device.keys.signatureKeys
            if let knowledgeKey { keys.knowledge = knowledgeKey }
            let signature = try PowerAuthSignature.compute(type: .possessionKnowledge, keys: keys,
                                                           counterData: device.counterData, data: data, format: .decimal8)
            device.counterData = PowerAuthCounter.next(device.counterData)
            return PowerAuthAuthorizationHeader(version: "3.0", activationID: device.activationID, applicationKey: device.applicationKey,
                                                nonce: Base64.encode(nonce), signatureType: .possessionKnowledge, signature: signature).headerValue
        }
        // Refused, and nothing counted, while the tenant does not allow legacy 3.0 (the default).
        let legacy = try await server.verifySignature(try decimal(PowerAuthTestDevice.wrongKnowledgeKey), uriID: "/k", body: body)
        #expect(legacy.json["valid"] as? Bool == false && legacy.json["remainingAttempts"] as? Int == 5)
        #expect(try await server.verifySignature(try decimal(), uriID: "/k", body: body).json["valid"] as? Bool == false)

        _ = try await server.application.tenantDirectory.updateSettings(tenantID: server.tenant.tenant.id) {
            $0.allowLegacyPowerAuth30 = true
        }
        let verified = try await server.verifySignature(try decimal(), uriID: "/k", body: body)
        #expect(verified.json["valid"] as? Bool == true && verified.json["remainingAttempts"] as? Int == 5)
        // The decimal possession component is separable too: a wrong PIN in 3.0 counts, a made-up signature does not.
        let wrong = try await server.verifySignature(try decimal(PowerAuthTestDevice.wrongKnowledgeKey), uriID: "/k", body: body)
        #expect(wrong.json["valid"] as? Bool == false && wrong.json["remainingAttempts"] as? Int == 4)
        var madeUp = try PowerAuthAuthorizationHeader(parsing: try decimal())
        madeUp.signature = "12345678-87654321"
        #expect(try await server.verifySignature(madeUp.headerValue, uriID: "/k", body: body).json["remainingAttempts"] as? Int == 4)
        await server.stop()
    }
}
