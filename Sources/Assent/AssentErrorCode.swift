/// The `errorCode` values the SDK itself produces. Anything else in ``AssentResponse/errorCode`` is the server's own
/// code passed through unchanged (`invalid_credential`, `expired_token`, `unauthorized`, `too_many_requests`, ...).
public enum AssentErrorCode {
    /// No token was passed and none was set with ``Assent/setToken(_:)``.
    public static let tokenNotSet = "token_not_set"
    /// The device holds no key for this credential (never enrolled, or removed).
    public static let credentialNotFound = "credential_not_found"
    /// The key store could not create the key pair at enrolment.
    public static let createKeyPairFailed = "create_key_pair_failed"
    /// A key exists but the key store could not read it (wrong passphrase, damaged file, unsafe permissions).
    public static let keyStoreError = "key_store_error"
    /// The key could not sign (for example the user declined a presence prompt).
    public static let signingFailed = "signing_failed"
    /// No HTTP answer arrived: connection refused, timeout, TLS failure.
    public static let networkError = "network_error"
    /// The server answered in a way that is not an error envelope: 404 without a body (wrong base URL), or another
    /// non-200 status without an `errorCode`; also a base URL that is not a URL.
    public static let apiError = "api_error"
    /// A 200 answer whose body is not what the operation expects.
    public static let decodingError = "decoding_error"
    /// An Android `authorizationType` bit mask other than 0 to 3; nothing was created or sent.
    public static let invalidAuthorizationType = "invalid_authorization_type"

    // Codes the server sends, listed for convenience.

    /// The device's credential is unknown to the server (removed there, or never enrolled).
    public static let invalidCredential = "invalid_credential"
    /// The token has expired.
    public static let expiredToken = "expired_token"
    /// Missing or wrong authentication.
    public static let unauthorized = "unauthorized"
    /// Slow down.
    public static let tooManyRequests = "too_many_requests"
    /// A rate limit refused the request; the server's `Retry-After` says when to try again.
    public static let rateLimited = "rate_limited"
}
