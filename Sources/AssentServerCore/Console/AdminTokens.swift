import AssentCrypto
import Foundation

/// Creates, lists and revokes admin tokens, and recognises one at sign-in. A token is `at_` and 32 random bytes
/// (base64url); the store keeps only its SHA-256 (a slow hash adds nothing for 256 random bits), so it is shown once.
package struct AdminTokens: Sendable {
    /// A new token with its secret text, which exists only in this value.
    package struct Created: Sendable {
        /// The token as stored.
        package var token: AdminToken
        /// The text to sign in with.
        package var secret: String
    }

    /// The prefix every admin token starts with.
    package static let prefix = "at_"
    /// The longest lifetime a token may have: a year.
    package static let maxLifetimeSeconds: Int64 = 366 * 86_400
    /// The lifetime when none is given: thirty days.
    package static let defaultLifetimeSeconds: Int64 = 30 * 86_400

    private let store: any ConsoleStore & TenantStore
    private let clock: WallClock

    /// Tokens over `store`, timed by `clock`.
    package init(store: any ConsoleStore & TenantStore, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The stored form of a token.
    static func hash(_ secret: String) -> [UInt8] { SHA256.hash(Array(secret.utf8)) }

    /// Creates a token for `tenantID` that works for `lifetimeSeconds` (1 s … a year).
    package func create(tenantID: String, name: String, lifetimeSeconds: Int64 = defaultLifetimeSeconds) async throws -> Created {
        guard (1...Self.maxLifetimeSeconds).contains(lifetimeSeconds) else {
            throw AssentError(.invalidRequest, "An admin token's lifetime must be between 1 second and 366 days.")
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 200 else { throw AssentError(.invalidRequest, "A token name has at most 200 characters.") }
        guard try await store.tenant(id: tenantID) != nil else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        let secret = Self.prefix + Base64.encodeURL(SecureRandom.bytes(32))
        let now = clock.nowMilliseconds()
        let token = AdminToken(
            id: "adt_" + Base64.encodeURL(SecureRandom.bytes(9)), tenantID: tenantID, tokenHash: Self.hash(secret),
            name: trimmed, createdAt: now, expiresAt: now + lifetimeSeconds * 1000)
        try await store.insertAdminToken(token)
        return Created(token: token, secret: secret)
    }

    /// A tenant's tokens, expired ones included.
    package func list(tenantID: String) async throws -> [AdminToken] { try await store.adminTokens(tenantID: tenantID) }

    /// Revokes a token: it stops signing in, and the sessions it signed in end at once.
    package func revoke(id: String) async throws {
        guard try await store.deleteAdminToken(id: id) else {
            throw AssentError(.notFound, "No admin token with id \(id).")
        }
    }

    /// The unexpired token this text is, or nil.
    package func token(secret: String) async throws -> AdminToken? {
        guard secret.hasPrefix(Self.prefix), secret.utf8.count <= 128 else { return nil }
        let hash = Self.hash(secret)
        guard let token = try await store.adminToken(tokenHash: hash), ConstantTime.equals(token.tokenHash, hash),
              token.isValid(at: clock.nowMilliseconds())
        else { return nil }
        return token
    }
}
