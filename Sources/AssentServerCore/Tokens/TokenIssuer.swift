import AssentCrypto
import AssentWire
import Foundation
import AssentSync

/// Signs and checks Assent tokens (HS256 JWTs). Each tenant signs with its own key, derived from the server's
/// master key with HKDF and the tenant's key version, so no token key is ever stored and bumping the version
/// revokes every outstanding token of that tenant. The key id names tenant and version, and the master key ring version
/// it was derived from when that is not 1 (`tenant.version~ring`), so a token signed before a master-key rotation
/// verifies until it expires and stops verifying when its ring version is retired.
package struct TokenIssuer: Sendable {
    private let keys: MasterKeys
    private let clock: WallClock
    private let cache = KeyCache()

    /// Derived keys by "tenant/version"; bounded, since tenants are few.
    private final class KeyCache: Sendable {
        let entries = AssentLock<[String: [UInt8]]>([:])
    }

    /// Creates an issuer over a 32-byte master key (a ring of one).
    package init(masterKey: [UInt8], clock: WallClock) {
        self.init(keys: MasterKeys(MasterKeyRing(single: masterKey)), clock: clock)
    }

    /// Creates an issuer over the master key ring `keys`.
    package init(keys: MasterKeys, clock: WallClock) {
        self.keys = keys
        self.clock = clock
    }

    /// The key of `tenantID` at token key `version` under ring version `ring`'s `masterKey`.
    private func key(tenantID: String, version: Int, ring: Int, masterKey: [UInt8]) throws -> [UInt8] {
        let name = "\(tenantID)/\(version)"
        let cacheName = "\(ring)/\(name)"
        if let key = cache.entries.withLock({ $0[cacheName] }) { return key }
        let key = try HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: Array("assent token key".utf8), info: Array(name.utf8), outputByteCount: 32)
        cache.entries.withLock { entries in
            if entries.count >= 4096 { entries.removeAll() }
            entries[cacheName] = key
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
        let ring = keys.current
        return try JWT.sign(
            payload: payload,
            using: .hs256(try key(tenantID: tenant.id, version: tenant.keyVersion, ring: ring.current, masterKey: ring.currentKey)),
            keyID: Self.keyID(tenant: tenant, ring: ring.current))
    }

    /// `tenant.version`, then `~ring` when the ring version is not 1 (so version 1's tokens look as they always did).
    static func keyID(tenant: Tenant, ring: Int) -> String {
        "\(tenant.id).\(tenant.keyVersion)" + (ring == 1 ? "" : "~\(ring)")
    }

    /// The ring version a key id of `tenant` names; nil when the key id is not one of `tenant`'s current ones.
    static func ringVersion(keyID: String, tenant: Tenant) -> Int? {
        let prefix = "\(tenant.id).\(tenant.keyVersion)"
        guard keyID.hasPrefix(prefix) else { return nil }
        let rest = keyID.dropFirst(prefix.count)
        if rest.isEmpty { return 1 }
        guard rest.first == "~", let ring = Int(rest.dropFirst()), ring > 1, String(ring) == rest.dropFirst() else {
            return nil
        }
        return ring
    }

    /// The tenant a token claims to belong to (unverified: only to pick the key to verify with).
    package static func claimedTenantID(of token: String) -> String? {
        guard let keyID = JWT.unverifiedKeyID(token), let dot = keyID.lastIndex(of: ".") else { return nil }
        return String(keyID[..<dot])
    }

    /// Verifies `token` as one of `tenant`'s, returning its claims. Throws `expiredToken` or `invalidToken`.
    package func verify(_ token: String, tenant: Tenant) throws -> TokenClaims {
        guard let keyID = JWT.unverifiedKeyID(token), let ringVersion = Self.ringVersion(keyID: keyID, tenant: tenant) else {
            throw AssentError(.invalidToken, "The token was not issued for this tenant or has been revoked.")
        }
        // A retired ring version verifies nothing: its tokens are refused like revoked ones.
        guard let masterKey = keys.ring(having: ringVersion).activeKey(ringVersion) else {
            throw AssentError(.invalidToken, "The token was not issued for this tenant or has been revoked.")
        }
        let payload: [UInt8]
        do {
            payload = try JWT.verify(
                token, using: .hs256(try key(tenantID: tenant.id, version: tenant.keyVersion, ring: ringVersion, masterKey: masterKey)),
                now: clock.nowSeconds())
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
