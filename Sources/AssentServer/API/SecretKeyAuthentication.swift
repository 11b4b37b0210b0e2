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
                guard let secret = BasicCredentials.user(from: request.headers["Authorization"]),
                      let tenant = try await tenants.tenant(secret: secret)
                else { throw AssentError.unauthorized() }
                return try await handler(request, parameters, tenant)
            } catch {
                return APIResponses.failure(error, request: request, logger: logger)
            }
        }
    }
}
