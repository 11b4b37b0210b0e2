import AssentCrypto
import AssentWire
import Foundation
import AssentSync

/// Signs and checks Assent tokens (HS256 JWTs). Each tenant signs with its own key, derived from the server's
/// master key with HKDF and the tenant's key version, so no token key is ever stored and bumping the version
/// revokes every outstanding token of that tenant. The key id names tenant and version.
package struct TokenIssuer: Sendable {
    private let masterKey: [UInt8]
    private let clock: WallClock
    private let keys = KeyCache()

    /// Derived keys by "tenant/version"; bounded, since tenants are few.
    private final class KeyCache: Sendable {
        let entries = AssentLock<[String: [UInt8]]>([:])
    }

    /// Creates an issuer over a 32-byte master key.
    package init(masterKey: [UInt8], clock: WallClock) {
        self.masterKey = masterKey
        self.clock = clock
    }

    private func key(tenantID: String, version: Int) throws -> [UInt8] {
        let name = "\(tenantID)/\(version)"
        if let key = keys.entries.withLock({ $0[name] }) { return key }
        let key = try HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: Array("assent token key".utf8), info: Array(name.utf8), outputByteCount: 32)
        keys.entries.withLock { entries in
            if entries.count >= 4096 { entries.removeAll() }
            entries[name] = key
        }
        return key
    }

    /// Issues a token for `action` of `tenant` living `lifetime` seconds.
    package func issue(
        kind: TokenClaims.Kind, tenant: Tenant, action: Action, scope: String?, lifetime: Int64
    ) throws -> String {
        let now = clock.nowSeconds()
        let claims = TokenClaims(
            iss: "assent", tid: tenant.id, sub: action.userID, act: action.actionCode, idk: action.idempotencyKey,
            scope: scope, typ: kind, iat: now, exp: now + lifetime, jti: Base64.encodeURL(SecureRandom.bytes(12)))
        let payload = claims.payload
        return try JWT.sign(
            payload: payload, using: .hs256(try key(tenantID: tenant.id, version: tenant.keyVersion)),
            keyID: "\(tenant.id).\(tenant.keyVersion)")
    }

    /// The tenant a token claims to belong to (unverified: only to pick the key to verify with).
    package static func claimedTenantID(of token: String) -> String? {
        guard let keyID = JWT.unverifiedKeyID(token), let dot = keyID.lastIndex(of: ".") else { return nil }
        return String(keyID[..<dot])
    }

    /// Verifies `token` as one of `tenant`'s, returning its claims. Throws `expiredToken` or `invalidToken`.
    package func verify(_ token: String, tenant: Tenant) throws -> TokenClaims {
        guard JWT.unverifiedKeyID(token) == "\(tenant.id).\(tenant.keyVersion)" else {
            throw AssentError(.invalidToken, "The token was not issued for this tenant or has been revoked.")
        }
        let payload: [UInt8]
        do {
            payload = try JWT.verify(
                token, using: .hs256(try key(tenantID: tenant.id, version: tenant.keyVersion)), now: clock.nowSeconds())
        } catch let error as CryptoError where error.code == .expiredToken {
            throw AssentError(.expiredToken, "The token has expired.")
        } catch {
            throw AssentError(.invalidToken, "The token is not valid.")
        }
        guard let claims = TokenClaims(payload: payload),
              claims.iss == "assent", claims.tid == tenant.id
        else {
            throw AssentError(.invalidToken, "The token is not valid.")
        }
        return claims
    }
}
