import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The client API under `/v1/client/...`: device endpoints (tenant Basic + device signatures, or a Bearer track token
/// to enrol) and the initiating page's push endpoints (Bearer track token). Every success is a 200, which is what the
/// official mobile SDKs require.
struct ClientAPI: Sendable {
    let credentials: ClientCredentials
    let devices: DeviceCredentialService
    let push: PushChallengeService
    let decisions: ChallengeDecisions
    let logger: Logger

    private static let base = "/v1/client/user-authenticators"

    func register(in router: inout Router) {
        for (segment, method) in [("push", VerificationMethod.push), ("qr-code", VerificationMethod.device)] {
            CrossOrigin.add(&router, "GET", "\(Self.base)/\(segment)", handle { try await getCredential($0, method) })
            CrossOrigin.add(&router, "POST", "\(Self.base)/\(segment)", handle { try await addCredential($0, method) })
            CrossOrigin.add(&router, "POST", "\(Self.base)/\(segment)/remove", handle { try await removeCredential($0, method) })
        }
        CrossOrigin.add(&router, "POST", "\(Self.base)/push/challenge/sign", handle { try await sign($0, .getChallenge) })
        CrossOrigin.add(&router, "GET", "\(Self.base)/push/challenge", handle(getChallenge))
        CrossOrigin.add(&router, "POST", "\(Self.base)/push/challenge", handle(updateChallenge))
        CrossOrigin.add(&router, "POST", "\(Self.base)/push/sign", handle { try await sign($0, .updateCredential) })
        CrossOrigin.add(&router, "PATCH", "\(Self.base)/push", handle(updateCredential))
        CrossOrigin.add(&router, "POST", "/v1/client/challenge/push", handle(startPush))
        CrossOrigin.add(&router, "POST", "/v1/client/verify/push", handle(verifyPush))
    }

    private func handle(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Router.Handler {
        APIResponses.handler(logger: logger, body)
    }

    private func queryKey(_ request: HTTPRequest) throws -> DeviceKey {
        guard let value = request.queryItem("publicKey"), !value.isEmpty else {
            throw AssentError(.invalidRequest, "The publicKey query parameter is required.")
        }
        return try DeviceKey(query: value)
    }

    // MARK: Credentials

    private func getCredential(_ request: HTTPRequest, _ method: VerificationMethod) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let authenticator = try await devices.credential(tenant: tenant, method: method, key: try queryKey(request))
        return APIResponses.ok(Self.credentialResponse(authenticator))
    }

    private func addCredential(_ request: HTTPRequest, _ method: VerificationMethod) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.bearer(request)
        let body = try JSONBody(request)
        var add = AddCredentialRequest(publicKey: try body.requiredString("publicKey", maxLength: 512))
        add.deviceName = try body.string("deviceName", maxLength: 255)
        add.devicePlatform = try body.string("devicePlatform", maxLength: 32)
        add.pushToken = try body.string("pushToken", maxLength: 4096)
        add.userPresenceRequired = try body.bool("userPresenceRequired")
        add.userAuthenticationRequired = try body.bool("userAuthenticationRequired")
        if let timeout = try body.integer("timeout", range: 0...86_400) { add.timeout = timeout }
        add.authorizationType = try body.string("authorizationType", maxLength: 64)
        let authenticator = try await devices.add(tenant: tenant, claims: claims, method: method, request: add)
        return APIResponses.ok(
            AddCredentialResponse(
                userAuthenticatorId: authenticator.id, userId: authenticator.userID,
                verifiedAt: Timestamp.iso8601(milliseconds: authenticator.verifiedAt ?? authenticator.createdAt),
                expiresAt: authenticator.expiresAt.map(Timestamp.iso8601(milliseconds:))))
    }

    private func removeCredential(_ request: HTTPRequest, _ method: VerificationMethod) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let body = try JSONBody(request)
        let key = try DeviceKey(base64: try body.requiredString("publicKey", maxLength: 512))
        let signature = try body.requiredString("signature", maxLength: 256)
        let removed = try await devices.remove(tenant: tenant, method: method, key: key, signature: signature)
        return APIResponses.ok(RemoveCredentialResponse(removedAuthenticatorId: removed.id))
    }

    private func sign(_ request: HTTPRequest, _ purpose: Nonce.Purpose) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let authenticator = try await devices.credential(tenant: tenant, method: .push, key: try queryKey(request))
        let nonce = try await devices.issueNonce(tenant: tenant, authenticator: authenticator, purpose: purpose)
        return APIResponses.ok(
            SigningMessageResponse(challengeId: purpose == .updateCredential ? nonce.id : nil, message: nonce.message))
    }

    private func updateCredential(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let body = try JSONBody(request)
        let key = try DeviceKey(base64: try body.requiredString("publicKey", maxLength: 512))
        let authenticator = try await devices.update(
            tenant: tenant, key: key, nonceID: try body.requiredString("challengeId", maxLength: 200),
            signature: try body.requiredString("signature", maxLength: 256),
            pushToken: try body.string("pushToken", maxLength: 4096), resetExpiry: try body.bool("resetExpiry") ?? false)
        return APIResponses.ok(
            UpdateCredentialResponse(
                userAuthenticatorId: authenticator.id, userId: authenticator.userID,
                lastVerifiedAt: Timestamp.iso8601(milliseconds: authenticator.lastVerifiedAt ?? authenticator.createdAt),
                pushToken: authenticator.pushToken, expiresAt: authenticator.expiresAt.map(Timestamp.iso8601(milliseconds:))))
    }

    // MARK: Push challenges (device)

    private func getChallenge(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let key = try queryKey(request)
        let authenticator = try await devices.credential(tenant: tenant, method: .push, key: key)
        let signature = request.headers["X-Authsignal-Signature"].flatMap { $0.isEmpty ? nil : $0 }
        return APIResponses.ok(
            try await push.pending(tenant: tenant, authenticator: authenticator, key: key, signature: signature))
    }

    private func updateChallenge(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let update = try Self.updateChallengeRequest(try JSONBody(request))
        let key = try DeviceKey(base64: update.publicKey)
        let authenticator = try await devices.credential(tenant: tenant, method: .push, key: key)
        let answered = try await decisions.answer(
            tenant: tenant, authenticator: authenticator, key: key, request: update, kind: .push,
            proof: ApprovalProof(header: request.headers[PowerAuthAuthorizationHeader.name], uriID: request.path, body: request.body))
        return APIResponses.ok(UpdateChallengeResponse(isVerified: answered.state == .approved))
    }

    static func updateChallengeRequest(_ body: JSONBody) throws -> UpdateChallengeRequest {
        guard let approved = try body.bool("approved") else {
            throw AssentError(.invalidRequest, "approved is required.")
        }
        return UpdateChallengeRequest(
            challengeId: try body.requiredString("challengeId", maxLength: 200),
            publicKey: try body.requiredString("publicKey", maxLength: 512), approved: approved,
            signature: try body.requiredString("signature", maxLength: 256),
            verificationCode: try body.string("verificationCode", maxLength: 16),
            boundSignature: try body.string("boundSignature", maxLength: 256))
    }

    // MARK: Push challenges (initiating page)

    private func startPush(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.bearer(request)
        let body = try JSONBody(request)
        let (challenge, results) = try await push.start(
            tenant: tenant, claims: claims, action: try body.string("action", maxLength: 100),
            targetID: try body.string("userAuthenticatorId", maxLength: 200))
        return APIResponses.ok(
            StartPushChallengeResponse(
                challengeId: challenge.id, expiresAt: Timestamp.iso8601(milliseconds: challenge.expiresAt),
                verificationCode: challenge.verificationCode,
                deliveryResults: results))
    }

    private func verifyPush(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.bearer(request)
        let body = try JSONBody(request)
        return APIResponses.ok(
            try await push.verify(
                tenant: tenant, claims: claims, challengeID: try body.requiredString("challengeId", maxLength: 200)))
    }

    static func credentialResponse(_ a: Authenticator) -> CredentialResponse {
        CredentialResponse(
            userAuthenticatorId: a.id, verifiedAt: Timestamp.iso8601(milliseconds: a.verifiedAt ?? a.createdAt),
            userId: a.userID, lastVerifiedAt: a.lastVerifiedAt.map(Timestamp.iso8601(milliseconds:)),
            expiresAt: a.expiresAt.map(Timestamp.iso8601(milliseconds:)))
    }
}
