import AssentHTTP
import AssentServerCore
import AssentWire

/// The rate limits as the handlers apply them: which subject each rule counts (the client address behind any trusted
/// proxy, a tenant, a user, a credential key, an activation). Each handler asks before the work a stranger could
/// make it repeat (per address before the tenant is looked up, the rest before anything is written), so a refused
/// request changes nothing.
///
/// Refusals of a tenant's subjects (a user, a credential key, the tenant itself) are counted in `trips`, which writes
/// them to the tenant's audit log as one summary a minute.
struct RequestLimits: Sendable {
    let limiter: RateLimiter
    /// Where refusals of tenant-scoped rules are counted, when audited.
    var trips: RateLimitTrips?

    /// Takes a token from `rule`'s bucket for the request's client address.
    func address(_ rule: RateLimitRule, _ request: HTTPRequest) throws {
        try limiter.take(rule, request.remoteAddress)
    }

    /// Takes a token from `rule`'s bucket for `subject` (a tenant id, a user, a key or an activation id).
    func subject(_ rule: RateLimitRule, _ subject: String) throws {
        try limiter.take(rule, subject)
    }

    /// Takes a token from `rule`'s bucket for the tenant itself.
    func tenant(_ rule: RateLimitRule, _ tenant: Tenant) throws {
        try counted(rule, tenant, tenant.id)
    }

    /// Takes a token for a user of a tenant (starts with a track token).
    func user(_ rule: RateLimitRule, _ tenant: Tenant, _ claims: TokenClaims) throws {
        try counted(rule, tenant, tenant.id + "/" + claims.sub)
    }

    /// Takes a token for a credential key of a tenant.
    func key(_ rule: RateLimitRule, _ tenant: Tenant, _ key: DeviceKey) throws {
        try counted(rule, tenant, tenant.id + "/" + key.canonicalText)
    }

    /// Takes a token for `subject` of `tenant`, counting a refusal in ``trips``.
    private func counted(_ rule: RateLimitRule, _ tenant: Tenant, _ subject: String) throws {
        do {
            try limiter.take(rule, subject)
        } catch {
            trips?.note(tenantID: tenant.id, rule: rule)
            throw error
        }
    }

    /// Runs `verification` of a client endpoint's PowerAuth signature (`header`) under its activation's bucket of
    /// failed verifications: a token is taken first (so concurrent guesses cannot all pass an empty bucket) and given
    /// back unless the verification fails with `invalid_signature`. Guessing that no failure counter sees (a
    /// possession-only signature, an unknown or blocked activation) is throttled here. Without a readable header the
    /// verification runs as it is and refuses the request itself.
    func countingFailedVerifications<T>(header: String?, _ verification: () async throws -> T) async throws -> T {
        guard limiter.isEnabled, let header, let activationID = try? PowerAuthAuthorizationHeader(parsing: header).activationID
        else { return try await verification() }
        try limiter.take(.failedVerificationActivation, activationID)
        do {
            let result = try await verification()
            limiter.refund(.failedVerificationActivation, activationID)
            return result
        } catch let error as AssentError where error.code == .invalidSignature {
            throw error
        } catch {
            limiter.refund(.failedVerificationActivation, activationID)
            throw error
        }
    }
}
