import AssentHTTP
import AssentLog
import AssentServerCore

/// The server API's authentication: the tenant's secret key as the user of HTTP Basic, as the official server SDKs
/// send it. Wraps a handler so it runs only for a known secret, and answers every failure with the JSON error envelope.
struct SecretKeyAuthentication: Sendable {
    /// A handler that is told the authenticated tenant.
    typealias Handler = @Sendable (HTTPRequest, RouteParameters, Tenant) async throws -> HTTPResponse

    let tenants: TenantDirectory
    let logger: Logger

    func callAsFunction(_ handler: @escaping Handler) -> Router.Handler {
        { [tenants, logger] request, parameters in
            do {
                let header = request.headers["Authorization"]
                guard let secret = BasicCredentials.user(from: header) else {
                    throw AssentError.unauthorized(sent: Self.whatWasSent(header))
                }
                guard let tenant = try await tenants.tenant(secret: secret) else {
                    throw AssentError.unauthorized(sent: "the secret key sent is no tenant's (mistyped, or rotated)")
                }
                return try await handler(request, parameters, tenant)
            } catch {
                // No WWW-Authenticate: with it, Foundation's URLSession on Linux answered the 401 with an
                // authentication challenge that never ended (the CLI hung); the body's `hint` names the header.
                return APIResponses.failure(error, request: request, logger: logger)
            }
        }
    }

    /// What was wrong with an `Authorization` header that carries no Basic user, in words (nil when there was none).
    static func whatWasSent(_ header: String?) -> String? {
        guard let header, !header.isEmpty else { return "this request sent no Authorization header" }
        let scheme = header.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        switch scheme {
        case "bearer":
            return "this request sent Authorization: Bearer, which the server API does not take (send the secret key "
                + "as the Basic user, with an empty password)"
        case "basic":
            return "this request's Basic credentials have no user (the secret key goes before the colon)"
        default:
            return "this request's Authorization header is not Basic"
        }
    }
}
