/// A refusal or failure that reaches an API client. Equality looks at the code only; the HTTP status and wire
/// `errorCode` come from the code, the description is for the client and never carries internals.
public struct AssentError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Stable error codes with their wire spelling and HTTP status.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire `errorCode`.
        public let wire: String
        /// The HTTP status.
        public let status: Int

        /// Malformed JSON, a missing field or a field of the wrong type or value (400).
        public static let invalidRequest = Code(wire: "invalid_request", status: 400)
        /// Missing or wrong credentials (401).
        public static let unauthorized = Code(wire: "unauthorized", status: 401)
        /// A token that is not valid (401).
        public static let invalidToken = Code(wire: "invalid_token", status: 401)
        /// A token past its lifetime (401).
        public static let expiredToken = Code(wire: "expired_token", status: 401)
        /// The device credential is unknown, removed or expired (401).
        public static let invalidCredential = Code(wire: "invalid_credential", status: 401)
        /// A device signature that does not verify (401).
        public static let invalidSignature = Code(wire: "invalid_signature", status: 401)
        /// The challenge has expired or was already answered (409 would hide which; 410 says "gone").
        public static let challengeClosed = Code(wire: "challenge_closed", status: 410)
        /// Authenticated but not allowed (403).
        public static let forbidden = Code(wire: "forbidden", status: 403)
        /// No such resource (404).
        public static let notFound = Code(wire: "not_found", status: 404)
        /// The request conflicts with what exists (409).
        public static let conflict = Code(wire: "conflict", status: 409)
        /// The body is not JSON (415).
        public static let unsupportedMediaType = Code(wire: "unsupported_media_type", status: 415)
        /// Slow down (429).
        public static let tooManyRequests = Code(wire: "too_many_requests", status: 429)
        /// Something failed inside Assent; details go to the log only (500).
        public static let internalError = Code(wire: "internal_error", status: 500)
        /// The tenant's push webhook did not accept `push.created`, so the challenge was not started (502).
        public static let pushDeliveryFailed = Code(wire: "push_delivery_failed", status: 502)
        /// The service cannot answer right now (503).
        public static let unavailable = Code(wire: "service_unavailable", status: 503)

        /// The wire spelling.
        public var description: String { wire }
    }

    /// What kind of refusal this is.
    public let code: Code
    /// Shown to the client as `errorDescription`.
    public let reason: String
    /// Where it was raised.
    public let file: String
    /// Where it was raised.
    public let line: Int

    /// Creates an error.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// The description the official SDKs show for a bad secret key.
    public static func unauthorized(file: String = #fileID, line: Int = #line) -> AssentError {
        AssentError(
            .unauthorized,
            "The request is unauthorized. Check that your API key and region base URL are correctly configured.",
            file: file, line: line)
    }

    public static func == (lhs: AssentError, rhs: AssentError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }
}
