import AssentCrypto
import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation

/// Who is calling the client API: a tenant named in a Basic header (device calls, which then prove themselves with
/// a signature), or the holder of a track token (Bearer).
package struct ClientCredentials: Sendable {
    let tenants: TenantDirectory
    let tokens: TokenIssuer

    /// The tenant of `Authorization: Basic <enc(tenantID[:])>`, decoded as every official SDK sends it: iOS
    /// base64url without padding, Android standard base64 with padding, the browser `btoa(encodeURIComponent(id))`
    /// without the colon.
    ///
    /// A tenant id with a control character (`<id>\0junk`, which a store would end at NUL) is refused
    /// `400 invalid_request` before any lookup.
    func tenant(_ request: HTTPRequest) async throws -> Tenant {
        // Foundation's percent decoding is ~1 % of a push flow's CPU; most SDKs send no escapes at all.
        guard let user = BasicCredentials.user(from: request.headers["Authorization"]),
              let tenantID = user.utf8.contains(UInt8(ascii: "%")) ? user.removingPercentEncoding : user,
              !tenantID.isEmpty, tenantID.utf8.count <= 128
        else {
            throw AssentError(.unauthorized, Self.basicRequired)
        }
        guard let tenant = try await tenants.tenant(id: try Self.tenantID(tenantID)) else {
            throw AssentError(.unauthorized, Self.basicRequired)
        }
        return tenant
    }

    /// The tenant and claims of `Authorization: Bearer <track token>`.
    func bearer(_ request: HTTPRequest) async throws -> (Tenant, TokenClaims) {
        guard let header = request.headers["Authorization"] else {
            throw AssentError(.unauthorized, Self.bearerRequired)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AssentError(.unauthorized, Self.bearerRequired)
        }
        return try await trackToken(String(parts[1].trimmingSpaces))
    }

    /// The tenant and claims of the Bearer track token a device enrols with. When the device names its tenant
    /// (`X-Authsignal-Tenant-ID`, which the official SDKs send), it must be the token's: a device configured for
    /// another tenant would otherwise "enrol" under the token's tenant and be unable to reach its credential, an
    /// orphan. Refused `403 tenant_mismatch` before anything is stored.
    func enrolling(_ request: HTTPRequest) async throws -> (Tenant, TokenClaims) {
        let (tenant, claims) = try await bearer(request)
        if let named = request.headers[Self.tenantHeader], named != tenant.id {
            throw AssentError(
                .tenantMismatch,
                "The token was issued for another tenant than the \(Self.tenantHeader) header names; check the device's tenant ID.")
        }
        return (tenant, claims)
    }

    /// The 401 description of a device call without a known tenant: it names the header the call needs (the server
    /// API keeps Authsignal's own wording, which its SDKs' users know).
    static let basicRequired = """
        The request is unauthorized. Send the tenant ID as HTTP Basic credentials, \
        Authorization: Basic base64(TENANT_ID + ":"), and check the tenant ID and base URL.
        """

    /// The 401 description of a call that needs a track token and has none.
    static let bearerRequired = """
        The request is unauthorized. Send the token a track answered as Authorization: Bearer TOKEN.
        """

    /// The header in which a device names its tenant.
    static let tenantHeader = "X-Authsignal-Tenant-ID"

    /// The tenant and claims of a track token.
    func trackToken(_ token: String) async throws -> (Tenant, TokenClaims) {
        guard token.utf8.count <= 4096, let tenantID = TokenIssuer.claimedTenantID(of: token),
              WireCharacters.identifier.allows(tenantID), let tenant = try await tenants.tenant(id: tenantID)
        else {
            throw AssentError(.invalidToken, "The token is not valid.")
        }
        let claims = try tokens.verify(token, tenant: tenant)
        guard claims.typ == .track else {
            throw AssentError(.invalidToken, "This token cannot be used here.")
        }
        return (tenant, claims)
    }

    /// `id` when it holds no control character, else `400 invalid_request` (the tenant id of a Basic header or of the
    /// WebSocket's `x.authsignal.tenant.` subprotocol).
    package static func tenantID(_ id: String) throws -> String {
        try PathParameter.checked(id, "The tenant ID", maxBytes: 128)
    }
}
