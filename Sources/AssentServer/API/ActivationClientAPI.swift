import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The device side of PowerAuth activations: `POST /v1/client/activations` (Bearer track token),
/// `POST /v1/client/activations/status` and `POST /v1/client/vault/unlock` (PowerAuth-signed). See docs/powerauth.md.
struct ActivationClientAPI: Sendable {
    let credentials: ClientCredentials
    let activations: ActivationService
    let logger: Logger

    func register(in router: inout Router) {
        CrossOrigin.add(&router, "POST", "/v1/client/activations", handle(create))
        CrossOrigin.add(&router, "POST", "/v1/client/activations/status", handle(status))
        CrossOrigin.add(&router, "POST", "/v1/client/vault/unlock", handle(vaultUnlock))
    }

    private func handle(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Router.Handler {
        APIResponses.handler(logger: logger, body)
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (tenant, claims) = try await credentials.bearer(request)
        let body = try JSONBody(request)
        let create = CreateActivationRequest(
            devicePublicKey: try body.requiredString("devicePublicKey", maxLength: 256),
            activationName: try body.string("activationName", maxLength: 255))
        return APIResponses.ok(try await activations.create(tenant: tenant, claims: claims, request: create))
    }

    private func status(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try JSONBody(request)
        let id = try body.requiredString("activationId", maxLength: 64)
        return APIResponses.ok(try await activations.status(activationID: id, challenge: try body.requiredString("challenge", maxLength: 64)))
    }

    private func vaultUnlock(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try JSONBody(request)
        let reason = try body.string("reason", maxLength: 64) ?? "ADD_BIOMETRY"
        guard ["ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY", "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE"].contains(reason) else {
            throw AssentError(.invalidRequest, "reason must be ADD_BIOMETRY, FETCH_ENCRYPTION_KEY, SIGN_WITH_DEVICE_PRIVATE_KEY or RECOVERY_CODE.")
        }
        let answer = try await activations.vaultUnlock(header: request.headers[PowerAuthAuthorizationHeader.name], body: request.body)
        logger.log(.info, "vault unlocked", ["requestId": .string(request.requestID), "reason": .string(reason)])
        return APIResponses.ok(answer)
    }
}
