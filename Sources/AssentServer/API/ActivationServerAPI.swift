import AssentCrypto
import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The backend side of PowerAuth activations (tenant secret key over HTTP Basic): read, list, commit, block, unblock
/// and remove activations, and verify a signed request the backend received (`POST /v1/signatures/verify`).
struct ActivationServerAPI: Sendable {
    let tenants: TenantDirectory
    let activations: ActivationService
    let logger: Logger

    func register(in router: inout Router) {
        router.add("GET", "/v1/activations/{activationId}", authenticated { _, parameters, tenant in
            APIResponses.ok(Self.response(try await activations.activation(tenantID: tenant.id, id: try id(parameters)), tenant))
        })
        router.add("GET", "/v1/users/{userId}/activations", authenticated { _, parameters, tenant in
            let userID = try PathParameter.userID(parameters)
            let list = try await activations.activations(tenantID: tenant.id, userID: userID)
            return APIResponses.ok(ActivationListResponse(activations: list.map { Self.response($0, tenant) }))
        })
        for change in [ActivationService.Change.commit, .block, .unblock] {
            router.add("POST", "/v1/activations/{activationId}/\(change.rawValue)", authenticated { _, parameters, tenant in
                APIResponses.ok(Self.response(try await activations.change(tenantID: tenant.id, id: try id(parameters), change), tenant))
            })
        }
        router.add("DELETE", "/v1/activations/{activationId}", authenticated { _, parameters, tenant in
            APIResponses.ok(Self.response(try await activations.change(tenantID: tenant.id, id: try id(parameters), .remove), tenant))
        })
        router.add("POST", "/v1/signatures/verify", authenticated(verify))
    }

    private func id(_ parameters: RouteParameters) throws -> String {
        try PathParameter.identifier(parameters, "activationId")
    }

    private typealias Handler = @Sendable (HTTPRequest, RouteParameters, Tenant) async throws -> HTTPResponse

    private func authenticated(_ handler: @escaping Handler) -> Router.Handler {
        { [tenants, logger] request, parameters in
            do {
                guard let secret = BasicCredentials.user(from: request.headers["Authorization"]),
                      let tenant = try await tenants.tenant(secret: secret)
                else { throw AssentError.unauthorized() }
                return try await handler(request, parameters, tenant)
            } catch {
                return APIResponses.failure(error, request: request, logger: logger)
            }
        }
    }

    private func verify(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let body = try JSONBody(request)
        let method = try body.requiredString("method", maxLength: 16).uppercased()
        let uriID = try body.requiredString("uriId", maxLength: 2048)
        guard var signedBody = Base64.decode(try body.string("body", maxLength: 2_000_000) ?? "") else {
            throw AssentError(.invalidRequest, "body must be Base64 of the signed request body.")
        }
        if let query = try body.string("query", maxLength: 16_384) {
            // A GET's raw query string, canonicalized here so the backend need not.
            guard signedBody.isEmpty, let canonical = PowerAuthRequestData.canonicalQuery(rawQuery: query) else {
                throw AssentError(.invalidRequest, "query must be a well-formed query string, and only without body.")
            }
            signedBody = Array(canonical.utf8)
        }
        let authorization = try body.requiredString("authorization", maxLength: 2048)
        let header: PowerAuthAuthorizationHeader
        do {
            header = try PowerAuthAuthorizationHeader(parsing: authorization)
        } catch {
            throw AssentError(.invalidRequest, "authorization is not a valid \(PowerAuthAuthorizationHeader.name) value: \(error.reason).")
        }
        let result = try await activations.verify(
            tenantID: tenant.id, settings: tenant.settings, method: method, uriID: uriID, body: signedBody, header: header)
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
            createdAt: Timestamp.iso8601(milliseconds: a.createdAt), lastUsedAt: a.lastUsedAt.map(Timestamp.iso8601(milliseconds:)))
    }
}
