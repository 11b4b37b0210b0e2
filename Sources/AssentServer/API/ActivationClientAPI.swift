import AssentCrypto
import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The device side of PowerAuth activations: `POST /v1/client/activations` (Bearer track token),
/// `POST /v1/client/activations/status` and `POST /v1/client/vault/unlock` (PowerAuth-signed). The last two name their
/// tenant as every device call does (`Authorization: Basic`, ``ClientCredentials/tenant(_:)``), and only that tenant's
/// activations are found. See docs/powerauth.md.
struct ActivationClientAPI: Sendable {
    let credentials: ClientCredentials
    let activations: ActivationService
    let decoder: any RequestDecoding
    let limits: RequestLimits
    let logger: Logger

    func register(in router: inout Router) {
        CrossOrigin.add(&router, .createActivation, handle(create))
        CrossOrigin.add(&router, .getActivationStatus, handle(status))
        CrossOrigin.add(&router, .unlockVault, handle(vaultUnlock))
    }

    private func handle(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Router.Handler {
        APIResponses.handler(logger: logger, body)
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.enrolling(request)
        let create = try decoder.decode(CreateActivationRequest.self, from: request)
        let created = try await activations.create(
            tenant: tenant, claims: claims, enrolment: ActivationService.Enrolment(create))
        return APIResponses.ok(
            CreateActivationResponse(
                activationId: created.activationID, serverPublicKey: Base64.encode(created.serverPublicKey),
                ctrData: Base64.encode(created.counterData), activationSignature: Base64.encode(created.signature),
                activationFingerprint: created.fingerprint, applicationKey: created.applicationKey,
                applicationSecret: created.applicationSecret, activationStatus: created.status.rawValue))
    }

    private func status(_ request: HTTPRequest) async throws -> HTTPResponse {
        try limits.address(.activationStatusAddress, request)
        let tenant = try await credentials.tenant(request)
        let status = try decoder.decode(ActivationStatusRequest.self, from: request)
        try limits.subject(.activationStatusActivation, status.activationId)
        let blob = try await activations.status(tenant: tenant, activationID: status.activationId, challenge: status.challenge)
        return APIResponses.ok(
            ActivationStatusResponse(encryptedStatusBlob: Base64.encode(blob.encrypted), nonce: Base64.encode(blob.nonce)))
    }

    private func vaultUnlock(_ request: HTTPRequest) async throws -> HTTPResponse {
        try limits.address(.vaultUnlockAddress, request)
        let tenant = try await credentials.tenant(request)
        let reason = try decoder.decode(VaultUnlockRequest.self, from: request).reason
        let header = request.headers[PowerAuthAuthorizationHeader.name]
        if let activationID = header.flatMap({ try? PowerAuthAuthorizationHeader(parsing: $0).activationID }) {
            try limits.subject(.vaultUnlockActivation, activationID)
        }
        let encrypted = try await limits.countingFailedVerifications(header: header) {
            try await activations.vaultUnlock(tenant: tenant, header: header, body: request.body)
        }
        logger.log(.info, "vault unlocked", ["requestId": .string(request.requestID), "reason": .string(reason)])
        return APIResponses.ok(VaultUnlockResponse(encryptedVaultEncryptionKey: Base64.encode(encrypted)))
    }
}
