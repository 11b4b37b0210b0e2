/// A refusal or failure that reaches an API client. Equality looks at the code only; the wire `errorCode` comes from
/// the code, the description is for the client and never carries internals. Which HTTP status a code answers with is
/// the HTTP adapter's business (`AssentError.Code.status` in `AssentServer`), not the domain's.
package struct AssentError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Stable error codes with their wire spelling.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire `errorCode`.
        package let wire: String

        /// A code spelled `wire` on the wire.
        package init(wire: String) { self.wire = wire }

        /// Malformed JSON, a missing field or a field of the wrong type or value.
        package static let invalidRequest = Code(wire: "invalid_request")
        /// Missing or wrong credentials.
        package static let unauthorized = Code(wire: "unauthorized")
        /// A token that is not valid.
        package static let invalidToken = Code(wire: "invalid_token")
        /// A token past its lifetime.
        package static let expiredToken = Code(wire: "expired_token")
        /// The device credential is unknown, removed or expired.
        package static let invalidCredential = Code(wire: "invalid_credential")
        /// A device signature that does not verify.
        package static let invalidSignature = Code(wire: "invalid_signature")
        /// The challenge has expired or was already answered.
        package static let challengeClosed = Code(wire: "challenge_closed")
        /// Authenticated but not allowed.
        package static let forbidden = Code(wire: "forbidden")
        /// The tenant a device names (`X-Authsignal-Tenant-ID`) is not the tenant its enrolment token was issued for.
        package static let tenantMismatch = Code(wire: "tenant_mismatch")
        /// No such resource.
        package static let notFound = Code(wire: "not_found")
        /// The request conflicts with what exists.
        package static let conflict = Code(wire: "conflict")
        /// The body is not JSON.
        package static let unsupportedMediaType = Code(wire: "unsupported_media_type")
        /// Slow down.
        package static let tooManyRequests = Code(wire: "too_many_requests")
        /// Something failed inside Assent; details go to the log only.
        package static let internalError = Code(wire: "internal_error")
        /// The tenant's push webhook did not accept `push.created`, so the challenge was not started.
        package static let pushDeliveryFailed = Code(wire: "push_delivery_failed")
        /// The service cannot answer right now.
        package static let unavailable = Code(wire: "service_unavailable")
        /// Push starts for this user are throttled after consecutive denials, expiries or wrong codes.
        package static let pushThrottled = Code(wire: "push_throttled")
        /// Push starts for this user are locked after a device reported a push as not theirs.
        package static let pushLocked = Code(wire: "push_locked")

        /// The wire spelling.
        package var description: String { wire }
    }

    /// What kind of refusal this is.
    package let code: Code
    /// Shown to the client as `errorDescription`.
    package let reason: String
    /// Where it was raised.
    package let file: String
    /// Where it was raised.
    package let line: Int
    /// When to try again, seconds (sent as `Retry-After`); nil when not said.
    package let retryAfterSeconds: Int?
    /// More for a person, sent as the envelope's extra `hint` field where ``reason`` must stay word for word what
    /// Authsignal's SDKs expect (their own test suites compare it); nil when there is nothing to add.
    package let hint: String?

    /// Creates an error.
    package init(
        _ code: Code, _ reason: String, retryAfterSeconds: Int? = nil, hint: String? = nil, file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.reason = reason
        self.retryAfterSeconds = retryAfterSeconds
        self.hint = hint
        self.file = file
        self.line = line
    }

    /// An enrolment token whose action already enrolled another credential (a push or QR key, or a PowerAuth
    /// activation): one token enrols one credential, whatever its kind.
    package static func enrolmentTokenUsed(file: String = #fileID, line: Int = #line) -> AssentError {
        AssentError(
            .forbidden, "This token already enrolled another device; track a new action to enrol this one.",
            file: file, line: line)
    }

    /// The description the official SDKs show for a bad secret key.
    package static let unauthorizedWording =
        "The request is unauthorized. Check that your API key and region base URL are correctly configured."

    /// The server API's 401: `errorDescription` is Authsignal's wording, word for word (the official SDKs' own test
    /// suites compare it); the `hint` says which header was expected and, when one was sent, what was wrong with it
    /// (`sent`) — never the credential itself.
    package static func unauthorized(sent: String? = nil, file: String = #fileID, line: Int = #line) -> AssentError {
        AssentError(
            .unauthorized, unauthorizedWording,
            hint: "The server API takes the tenant's secret key as HTTP Basic credentials: "
                + "Authorization: Basic base64(SECRET_KEY + \":\")" + (sent.map { "; \($0)" } ?? "") + ".",
            file: file, line: line)
    }

    package static func == (lhs: AssentError, rhs: AssentError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: reason`.
    package var description: String { "\(code): \(reason)" }
}
