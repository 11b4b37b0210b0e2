/// The result of every SDK call: `data` on success; on failure `error` (for people) and `errorCode` (for code).
/// An error is never dropped: when `data` is nil and something went wrong, `error` and `errorCode` say what.
public struct AssentResponse<T: Sendable>: Sendable {
    /// The result, when the call succeeded. Nil without an error when "nothing" is the answer, e.g. no pending
    /// challenge from ``AssentPush/getChallenge()``; so `if let value = response.data` binds the value itself.
    public var data: T?
    /// What went wrong, for a person.
    public var error: String?
    /// What went wrong, for code: `token_not_set`, `expired_token`, `network_error`, `invalid_credential`,
    /// `credential_not_found`, or the server's `errorCode`.
    public var errorCode: String?

    /// A success.
    public init(data: T?) {
        self.data = data
    }

    /// A failure.
    public init(error: String, errorCode: String?) {
        self.error = error
        self.errorCode = errorCode
    }

    /// A result that carries both data and an error: for example ``AssentPush/removeCredential()`` when the key was
    /// deleted locally but the server refused.
    public init(data: T?, error: String?, errorCode: String?) {
        self.data = data
        self.error = error
        self.errorCode = errorCode
    }

    /// Whether the call failed.
    public var isError: Bool { error != nil || errorCode != nil }
}
