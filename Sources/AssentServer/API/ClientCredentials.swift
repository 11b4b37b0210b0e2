import AssentCrypto
import AssentHTTP
import AssentServerCore
import Foundation

/// Who is calling the client API: a tenant named in a Basic header (device calls, which then prove themselves with
/// a signature), or the holder of a track token (Bearer).
struct ClientCredentials: Sendable {
    let tenants: any TenantStore
    let tokens: TokenIssuer

    /// The tenant of `Authorization: Basic <enc(tenantID[:])>`, decoded as every official SDK sends it: iOS
    /// base64url without padding, Android standard base64 with padding, the browser `btoa(encodeURIComponent(id))`
    /// without the colon.
    func tenant(_ request: HTTPRequest) async throws -> Tenant {
        guard let user = BasicCredentials.user(from: request.headers["Authorization"]),
              let tenantID = user.removingPercentEncoding, !tenantID.isEmpty, tenantID.utf8.count <= 128,
              let tenant = try await tenants.tenant(id: tenantID)
        else {
            throw AssentError(.unauthorized, "The request is unauthorized. Check the tenant ID and base URL.")
        }
        return tenant
    }

    /// The tenant and claims of `Authorization: Bearer <track token>`.
    func bearer(_ request: HTTPRequest) async throws -> (Tenant, TokenClaims) {
        guard let header = request.headers["Authorization"] else {
            throw AssentError(.unauthorized, "A Bearer token is required.")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AssentError(.unauthorized, "A Bearer token is required.")
        }
        return try await trackToken(String(parts[1].trimmingSpaces))
    }

    /// The tenant and claims of a track token.
    func trackToken(_ token: String) async throws -> (Tenant, TokenClaims) {
        guard token.utf8.count <= 4096, let tenantID = TokenIssuer.claimedTenantID(of: token),
              let tenant = try await tenants.tenant(id: tenantID)
        else {
            throw AssentError(.invalidToken, "The token is not valid.")
        }
        let claims = try tokens.verify(token, tenant: tenant)
        guard claims.typ == .track else {
            throw AssentError(.invalidToken, "This token cannot be used here.")
        }
        return (tenant, claims)
    }
}
