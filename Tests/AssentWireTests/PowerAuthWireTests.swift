import AssentWire
import Testing
import AssentCrypto

/// The PowerAuth models (activation, status, vault, signature verification) against golden JSON.
@Suite struct PowerAuthWireTests {
    private static let activationId = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"

    @Test func `CreateActivationRequest and CreateActivationResponse`() throws {
        let request = try Golden.roundTrip(CreateActivationRequest.self)
        #expect(request.devicePublicKey.hasPrefix("B") && request.activationName == "alice's terminal")
        let response = try Golden.roundTrip(CreateActivationResponse.self)
        #expect(response.activationId == Self.activationId && response.activationFingerprint == "12345678")
        #expect(response.ctrData == "AAECAwQFBgcICQoLDA0ODw==" && response.activationStatus == "ACTIVE")
    }

    @Test func `ActivationStatusRequest and ActivationStatusResponse`() throws {
        let request = try Golden.roundTrip(ActivationStatusRequest.self)
        #expect(request.activationId == Self.activationId && request.challenge == "MDEyMzQ1Njc4OWFiY2RlZg==")
        let response = try Golden.roundTrip(ActivationStatusResponse.self)
        #expect(!response.encryptedStatusBlob.isEmpty && response.nonce == "ZmVkY2JhOTg3NjU0MzIxMA==")
    }

    @Test func `VaultUnlockRequest and VaultUnlockResponse`() throws {
        #expect(try Golden.roundTrip(VaultUnlockRequest.self) == VaultUnlockRequest())
        #expect(try Golden.roundTrip(VaultUnlockResponse.self).encryptedVaultEncryptionKey.hasPrefix("ZW5jcnlwdGVk"))
    }

    @Test func `ActivationResponse and ActivationListResponse`() throws {
        let blocked = try Golden.roundTrip(ActivationResponse.self)
        #expect(blocked.activationStatus == "BLOCKED" && blocked.blockedReason == "MAX_FAILED_ATTEMPTS")
        #expect(blocked.failedAttempts == 5 && blocked.lastUsedAt == "2026-12-01T08:00:00.000Z")
        let list = try Golden.roundTrip(ActivationListResponse.self)
        #expect(list.activations.count == 1 && list.activations[0].activationName == nil)
        #expect(list.activations[0].activationStatus == "ACTIVE" && list.activations[0].lastUsedAt == nil)
    }

    @Test func `VerifySignatureRequest with a body, and with a query`() throws {
        let post = try Golden.roundTrip(VerifySignatureRequest.self)
        #expect(post.method == "POST" && post.uriId == "/payments" && post.query == nil)
        let header = try PowerAuthAuthorizationHeader(parsing: post.authorization)
        #expect(header.activationID == Self.activationId && header.signatureType == .possessionKnowledge)
        let get = try Golden.roundTrip(VerifySignatureRequest.self, "VerifySignatureRequest-get")
        #expect(get.method == "GET" && get.body == nil && get.query == "a=first+one&z=last")
    }

    @Test func `VerifySignatureResponse reports the verdict and the remaining attempts`() throws {
        let response = try Golden.roundTrip(VerifySignatureResponse.self)
        #expect(response.valid && response.activationId == Self.activationId && response.userId == "alice")
        #expect(response.signatureType == "possession_knowledge" && response.remainingAttempts == 5)
    }
}
