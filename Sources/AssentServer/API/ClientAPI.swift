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
    let attestationChallenges: AttestationChallenges
    let push: PushChallengeService
    let decisions: ChallengeDecisions
    let decoder: any RequestDecoding
    let limits: RequestLimits
    let logger: Logger

    func register(in router: inout Router) {
        for (get, add, remove, method) in [
            (Endpoint.getPushCredential, Endpoint.addPushCredential, Endpoint.removePushCredential, VerificationMethod.push),
            (.getQRCodeCredential, .addQRCodeCredential, .removeQRCodeCredential, .device),
        ] {
            CrossOrigin.add(&router, get, handle { try await getCredential($0, method) })
            CrossOrigin.add(&router, add, handle { try await addCredential($0, method) })
            CrossOrigin.add(&router, remove, handle { try await removeCredential($0, method) })
        }
        CrossOrigin.add(&router, .createAttestationChallenge, handle(createAttestationChallenge))
        CrossOrigin.add(&router, .signPushChallengeFetch, handle { try await sign($0, .getChallenge) })
        CrossOrigin.add(&router, .getPushChallenge, handle(getChallenge))
        CrossOrigin.add(&router, .updatePushChallenge, handle(updateChallenge))
        CrossOrigin.add(&router, .signPushCredentialUpdate, handle { try await sign($0, .updateCredential) })
        CrossOrigin.add(&router, .updatePushCredential, handle(updateCredential))
        CrossOrigin.add(&router, .startPushChallenge, handle(startPush))
        CrossOrigin.add(&router, .verifyPushChallenge, handle(verifyPush))
    }

    private func handle(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Router.Handler {
        APIResponses.handler(logger: logger, body)
    }

    private func queryKey(_ request: HTTPRequest) throws -> DeviceKey {
        guard let value = try PathParameter.query(request, "publicKey", maxBytes: 1024) else {
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
        let (tenant, claims) = try await credentials.enrolling(request)
        let add = try decoder.decode(AddCredentialRequest.self, from: request)
        let authenticator = try await devices.add(
            tenant: tenant, claims: claims, method: method, enrolment: DeviceCredentialService.Enrolment(add))
        return APIResponses.ok(
            AddCredentialResponse(
                userAuthenticatorId: authenticator.id, userId: authenticator.userID,
                verifiedAt: Timestamp.iso8601(milliseconds: authenticator.verifiedAt ?? authenticator.createdAt),
                expiresAt: authenticator.expiresAt.map(Timestamp.iso8601(milliseconds:))))
    }

    private func createAttestationChallenge(_ request: HTTPRequest) async throws -> HTTPResponse {
        try limits.address(.attestationChallengeAddress, request)
        let (tenant, claims) = try await credentials.enrolling(request)
        try limits.user(.attestationChallengeUser, tenant, claims)
        let challenge = try await attestationChallenges.issue(tenant: tenant, claims: claims)
        return APIResponses.ok(AttestationChallengeResponse(challenge: challenge.value, expiresAt: challenge.expiresAt / 1000))
    }

    private func removeCredential(_ request: HTTPRequest, _ method: VerificationMethod) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let remove = try decoder.decode(RemoveCredentialRequest.self, from: request)
        let removed = try await devices.remove(
            tenant: tenant, method: method, key: try DeviceKey(base64: remove.publicKey), signature: remove.signature)
        return APIResponses.ok(RemoveCredentialResponse(removedAuthenticatorId: removed.id))
    }

    private func sign(_ request: HTTPRequest, _ purpose: Nonce.Purpose) async throws -> HTTPResponse {
        try limits.address(.nonceAddress, request)
        let tenant = try await credentials.tenant(request)
        let key = try queryKey(request)
        try limits.key(.nonceKey, tenant, key)
        let authenticator = try await devices.credential(tenant: tenant, method: .push, key: key)
        let signing = devices.signingMessage(tenant: tenant, authenticator: authenticator, purpose: purpose)
        return APIResponses.ok(SigningMessageResponse(challengeId: signing.id, message: signing.message))
    }

    private func updateCredential(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let update = try decoder.decode(UpdateCredentialRequest.self, from: request)
        let authenticator = try await devices.update(
            tenant: tenant, key: try DeviceKey(base64: update.publicKey), nonceID: update.challengeId,
            signature: update.signature, pushToken: update.pushToken, resetExpiry: update.resetExpiry ?? false)
        return APIResponses.ok(
            UpdateCredentialResponse(
                userAuthenticatorId: authenticator.id, userId: authenticator.userID,
                lastVerifiedAt: Timestamp.iso8601(milliseconds: authenticator.lastVerifiedAt ?? authenticator.createdAt),
                pushToken: authenticator.pushToken, expiresAt: authenticator.expiresAt.map(Timestamp.iso8601(milliseconds:))))
    }

    // MARK: Push challenges (device)

    private func getChallenge(_ request: HTTPRequest) async throws -> HTTPResponse {
        try limits.address(.getChallengeAddress, request)
        let tenant = try await credentials.tenant(request)
        let key = try queryKey(request)
        try limits.key(.getChallengeKey, tenant, key)
        // A signature that verifies over no current message only withholds the public custom data: the challenge
        // itself is the wire protocol's to show to anyone who names the key.
        let signature = request.headers["X-Authsignal-Signature"]
        let pending = try await push.pending(tenant: tenant, key: key) { authenticator in
            signature.map {
                !$0.isEmpty && devices.verifiesChallengeFetch(tenant: tenant, authenticator: authenticator, key: key, signature: $0)
            } ?? false
        }
        return APIResponses.ok(Self.challengeResponse(pending))
    }

    private func updateChallenge(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let update = try decoder.decode(UpdateChallengeRequest.self, from: request)
        let key = try DeviceKey(base64: update.publicKey)
        let header = request.headers[PowerAuthAuthorizationHeader.name]
        // The credential and the challenge are read together (one round trip on PostgreSQL).
        let answered = try await limits.countingFailedVerifications(header: header) {
            try await decisions.answer(
                tenant: tenant, key: key, method: .push, answer: ChallengeAnswer(update), kind: .push,
                proof: ApprovalProof(request))
        }
        return APIResponses.ok(UpdateChallengeResponse(isVerified: answered.challenge.state == .approved))
    }

    // MARK: Push challenges (initiating page)

    private func startPush(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.bearer(request)
        let start = try decoder.decode(StartPushChallengeRequest.self, from: request)
        try limits.user(.startUser, tenant, claims)
        let started = try await push.start(
            tenant: tenant, claims: claims, action: start.action, targetID: start.userAuthenticatorId)
        let challenge = started.challenge
        return APIResponses.ok(
            StartPushChallengeResponse(
                challengeId: challenge.id, expiresAt: Timestamp.iso8601(milliseconds: challenge.expiresAt),
                verificationCode: challenge.verificationCode,
                deliveryResults: started.deliveries.map {
                    DeliveryResult(userAuthenticatorId: $0.authenticatorID, errorCode: $0.errorCode)
                }))
    }

    private func verifyPush(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.bearer(request)
        let verify = try decoder.decode(VerifyPushRequest.self, from: request)
        let progress = try await push.verify(tenant: tenant, claims: claims, challengeID: verify.challengeId)
        return APIResponses.ok(
            VerifyPushResponse(isVerified: progress.isVerified, isConsumed: progress.isConsumed, accessToken: progress.accessToken))
    }

    /// A device's view of its pending challenge: the verification code itself stays on the initiating page, the
    /// device learns only whether one is needed.
    static func challengeResponse(_ pending: PushChallengeService.Pending) -> PushChallengeResponse {
        var response = PushChallengeResponse(userAuthenticatorId: pending.authenticatorID)
        guard let challenge = pending.challenge else { return response }
        response.challengeId = challenge.id
        response.userId = challenge.userID
        response.actionCode = challenge.actionCode
        response.idempotencyKey = challenge.idempotencyKey
        response.deviceId = challenge.deviceID
        response.userAgent = challenge.userAgent
        response.ipAddress = challenge.ipAddress
        response.expiresAt = challenge.expiresAt / 1000
        response.verificationCodeRequired = challenge.verificationCode != nil
        response.custom = pending.publicCustom
        response.user = pending.publicUserCustom.map { ChallengeUser(custom: $0) }
        return response
    }

    static func credentialResponse(_ a: Authenticator) -> CredentialResponse {
        CredentialResponse(
            userAuthenticatorId: a.id, verifiedAt: Timestamp.iso8601(milliseconds: a.verifiedAt ?? a.createdAt),
            userId: a.userID, lastVerifiedAt: a.lastVerifiedAt.map(Timestamp.iso8601(milliseconds:)),
            expiresAt: a.expiresAt.map(Timestamp.iso8601(milliseconds:)))
    }
}
