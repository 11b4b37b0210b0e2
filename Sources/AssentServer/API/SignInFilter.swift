import AssentServerCore
import AssentWire

/// The authentication history's filters as query parameters, read once for the server API (`GET /v1/sign-ins`) and
/// the console's Sign-ins page, so both select the same rows for the same words: `user`, `outcome` (approved,
/// declined, expired, refused), `method` (push, qr), `action`, `from` and `to` (ISO-8601 UTC or milliseconds; `from`
/// inclusive, `to` exclusive), `limit` and `cursor` (the previous page's `nextCursor`). An empty parameter is no
/// filter; a malformed one is `invalid_request` naming it.
enum SignInFilter {
    /// The names, in the order forms show them.
    static let names = ["user", "outcome", "method", "action", "from", "to"]
    /// The methods a sign-in has.
    static let methods = ["push", "qr"]

    /// The query for `tenantID` from `parameter` (a query parameter's value by name, nil when absent), with `limit`
    /// from 1 to `maxLimit` (`defaultLimit` when absent).
    static func query(
        tenantID: String, defaultLimit: Int, maxLimit: Int, _ parameter: (String) -> String?
    ) throws -> SignInQuery {
        func value(_ name: String, maxBytes: Int) throws -> String? {
            guard let text = parameter(name), !text.isEmpty else { return nil }
            return try PathParameter.checked(text, name, maxBytes: maxBytes)
        }
        var query = SignInQuery(tenantID: tenantID, limit: defaultLimit)
        query.userID = try value("user", maxBytes: 255)
        if let outcome = try value("outcome", maxBytes: 20) {
            guard let parsed = SignIn.Outcome(rawValue: outcome) else {
                throw AssentError(.invalidRequest, "outcome must be one of approved, declined, expired, refused.")
            }
            query.outcome = parsed
        }
        if let method = try value("method", maxBytes: 20) {
            guard methods.contains(method) else { throw AssentError(.invalidRequest, "method must be push or qr.") }
            query.method = method
        }
        query.actionCode = try value("action", maxBytes: 255)
        for name in ["from", "to"] {
            guard let text = try value(name, maxBytes: 40) else { continue }
            guard let milliseconds = Timestamp.milliseconds(text) else {
                throw AssentError(.invalidRequest, "\(name) must be an ISO-8601 UTC time (2026-11-30T06:16:58Z) or milliseconds.")
            }
            if name == "from" { query.from = milliseconds } else { query.to = milliseconds }
        }
        if let limit = try value("limit", maxBytes: 10) {
            guard let number = Int(limit), (1...maxLimit).contains(number) else {
                throw AssentError(.invalidRequest, "limit must be a whole number from 1 to \(maxLimit).")
            }
            query.limit = number
        }
        if let cursor = try value("cursor", maxBytes: 64) {
            guard let parsed = SignInCursor(text: cursor) else {
                throw AssentError(.invalidRequest, "cursor is not one this server gave.")
            }
            query.after = parsed
        }
        return query
    }

    /// The wire entry of `signIn`.
    static func entry(_ signIn: SignIn) -> SignInListResponse.Entry {
        SignInListResponse.Entry(
            at: Timestamp.iso8601(milliseconds: signIn.at), userId: signIn.userID, actionCode: signIn.actionCode,
            method: signIn.method, factor: signIn.factor, userAuthenticatorId: signIn.credentialID,
            outcome: signIn.outcome.rawValue, reason: signIn.reason, ipAddress: signIn.ipAddress,
            userAgent: signIn.userAgent, verificationMs: signIn.verificationMilliseconds, challengeId: signIn.challengeID)
    }

    /// The cursor after `page`, or nil when it was the last (fewer rows than asked for).
    static func nextCursor(_ page: [SignIn], limit: Int) -> String? {
        page.count == limit ? page.last.map { SignInCursor($0).text } : nil
    }
}
