import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation
import AssentCrypto

/// The backend side of PowerAuth activations (tenant secret key over HTTP Basic): read, list, commit, block, unblock
/// and remove activations, and verify a signed request the backend received (`POST /v1/signatures/verify`).
struct ActivationServerAPI: Sendable {
    let authenticated: SecretKeyAuthentication
    let activations: ActivationService
    let decoder: any RequestDecoding

    func register(in router: inout Router) {
        router.add(.getActivation, authenticated { _, parameters, tenant in
            APIResponses.ok(Self.response(try await activations.activation(tenantID: tenant.id, id: try id(parameters)), tenant))
        })
        router.add(.getActivations, authenticated { _, parameters, tenant in
            let userID = try PathParameter.userID(parameters)
            let list = try await activations.activations(tenantID: tenant.id, userID: userID)
            return APIResponses.ok(ActivationListResponse(activations: list.map { Self.response($0, tenant) }))
        })
        for (endpoint, change) in [
            (Endpoint.commitActivation, ActivationService.Change.commit), (.blockActivation, .block),
            (.unblockActivation, .unblock), (.removeActivation, .remove),
        ] {
            router.add(endpoint, authenticated { _, parameters, tenant in
                let changed = try await activations.change(
                    tenantID: tenant.id, id: try id(parameters), change, actor: ServerAPI.actor)
                return APIResponses.ok(Self.response(changed, tenant))
            })
        }
        router.add(.verifySignature, authenticated(verify))
    }

    private func id(_ parameters: RouteParameters) throws -> String {
        try PathParameter.identifier(parameters, "activationId")
    }

    private func verify(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let verify = try decoder.decode(VerifySignatureRequest.self, from: request)
        // Decoding checked `body` and `query`, so the signed data is there.
        guard let signedData = verify.signedData else {
            throw AssentError(.invalidRequest, "body must be Base64 of the signed request body.")
        }
        let header: PowerAuthAuthorizationHeader
        do {
            header = try PowerAuthAuthorizationHeader(parsing: verify.authorization)
        } catch {
            throw AssentError(.invalidRequest, "authorization is not a valid \(PowerAuthAuthorizationHeader.name) value: \(error.reason).")
        }
        let result = try await activations.verify(
            tenantID: tenant.id, settings: tenant.settings, method: verify.method.uppercased(), uriID: verify.uriId,
            body: signedData, header: header)
        return APIResponses.ok(
            VerifySignatureResponse(
                valid: result.valid, activationId: result.activationID, userId: result.activation?.userID,
                activationStatus: result.status.rawValue, signatureType: result.signatureType.rawValue,
                remainingAttempts: result.remainingAttempts))
    }

    static func response(_ a: ActivationRecord, _ tenant: Tenant) -> ActivationResponse {
        ActivationResponse(
            activationId: a.id, userId: a.userID, activationName: a.name, activationStatus: a.status.rawValue,
            blockedReason: a.blockedReason?.rawValue, failedAttempts: a.failedAttempts,
            maxFailedAttempts: tenant.settings.maxFailedAttempts, activationFingerprint: a.fingerprint,
            createdAt: Timestamp.iso8601(milliseconds: a.createdAt), lastUsedAt: a.lastUsedAt.map(Timestamp.iso8601(milliseconds:)),
            attestation: a.attestation.map(ServerAPI.response))
    }
}
