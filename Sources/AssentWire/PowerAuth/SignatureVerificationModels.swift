import AssentCrypto

/// `POST /v1/signatures/verify` (tenant secret key): the customer's backend asks whether a request it received from
/// the app carries a valid PowerAuth signature. A valid one consumes the counter value it used (it cannot verify twice).
public struct VerifySignatureRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The HTTP method the app used (`POST`, `GET`, ...).
    public var method: String
    /// The logical URI id the app signed (often the request path).
    public var uriId: String
    /// Base64 of the raw body bytes the app signed; for GET, of the canonical query string
    /// (`PowerAuthRequestData.canonicalQuery`). Empty or absent for an empty body.
    public var body: String?
    /// Instead of `body`, for a GET: the raw query string as received (without `?`); the server canonicalizes it.
    public var query: String?
    /// The `X-PowerAuth-Authorization` header value as received.
    public var authorization: String

    /// Creates a request.
    public init(method: String, uriId: String, body: String?, query: String? = nil, authorization: String) {
        self.method = method
        self.uriId = uriId
        self.body = body
        self.query = query
        self.authorization = authorization
    }

    /// The fields, their limits and descriptions: `body` must be Base64, and `query` a well-formed query string sent
    /// only without a body.
    package static let wireFields = WireFields<Self>(
        "Whether a request the backend received from the app carries a valid PowerAuth signature.",
        blank: { Self(method: "", uriId: "", body: nil, authorization: "") }, [
            .requiredString("method", \.method, maxLength: 16, "The HTTP method the app used."),
            .requiredString("uriId", \.uriId, maxLength: 2048, "The logical URI id the app signed."),
            .string("body", \.body, maxLength: 2_000_000, "Base64 of the raw body bytes the app signed.")
                .checked { (request: Self) throws(WireDecodingError) in
                    guard Base64.decode(request.body ?? "") != nil else {
                        throw WireDecodingError("body must be Base64 of the signed request body.")
                    }
                },
            .string("query", \.query, maxLength: 16_384, "For a GET, instead of body: the raw query string as received.")
                .checked { (request: Self) throws(WireDecodingError) in
                    if request.query != nil, request.signedData == nil {
                        throw WireDecodingError("query must be a well-formed query string, and only without body.")
                    }
                },
            .requiredString("authorization", \.authorization, maxLength: 2048,
                            "The X-PowerAuth-Authorization header value as received."),
        ])

    /// The bytes the signature covers: the decoded `body`, or for a GET the canonical form of `query` (which the
    /// server computes so the backend need not); nil when either is malformed.
    public var signedData: [UInt8]? {
        guard let bytes = Base64.decode(body ?? "") else { return nil }
        guard let query else { return bytes }
        guard bytes.isEmpty, let canonical = PowerAuthRequestData.canonicalQuery(rawQuery: query) else { return nil }
        return Array(canonical.utf8)
    }
}

/// The answer to `POST /v1/signatures/verify` (always 200 when the request itself was well-formed).
public struct VerifySignatureResponse: Codable, Sendable, Hashable, WireSchema {
    /// Whether the signature verified (and the activation was ACTIVE).
    public var valid: Bool
    /// The activation named in the header.
    public var activationId: String
    /// Its user, when the activation exists in this tenant.
    public var userId: String?
    /// Its status after this verification (`REMOVED` for an unknown activation).
    public var activationStatus: String
    /// The signature type named in the header.
    public var signatureType: String
    /// Failed attempts left before the activation is blocked.
    public var remainingAttempts: Int

    /// Creates a response.
    public init(valid: Bool, activationId: String, userId: String?, activationStatus: String, signatureType: String, remainingAttempts: Int) {
        self.valid = valid
        self.activationId = activationId
        self.userId = userId
        self.activationStatus = activationStatus
        self.signatureType = signatureType
        self.remainingAttempts = remainingAttempts
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "The verification's result (always 200 when the request itself was well-formed).", [
            .field("valid", \.valid, "Whether the signature verified (and the activation was ACTIVE)."),
            .field("activationId", \.activationId, "The activation named in the header."),
            .optional("userId", \.userId, "Its user, when the activation exists in this tenant."),
            .field("activationStatus", \.activationStatus, "Its status after this verification."),
            .field("signatureType", \.signatureType, "The signature type named in the header."),
            .field("remainingAttempts", \.remainingAttempts, "Failed attempts left before the activation is blocked."),
        ])
}
