/// The body of every error answer: `error` (kept for older clients, equal to `errorCode`), `errorCode` and a
/// human-readable `errorDescription`.
public struct ErrorResponse: Codable, Sendable, Hashable, WireSchema {
    /// Deprecated duplicate of ``errorCode``, read by older clients.
    public var error: String
    /// A stable, machine-readable code such as `unauthorized` or `invalid_request`.
    public var errorCode: String
    /// What went wrong, for a person.
    public var errorDescription: String

    /// Creates an error body whose `error` repeats the code.
    public init(errorCode: String, errorDescription: String) {
        self.error = errorCode
        self.errorCode = errorCode
        self.errorDescription = errorDescription
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "The body of every error answer (a server-API 401 adds a hint for a person: the Authorization header it takes).", [
            .field("error", \.error, "Deprecated duplicate of errorCode, read by older clients."),
            .field("errorCode", \.errorCode, "A stable, machine-readable code such as unauthorized or invalid_request."),
            .field("errorDescription", \.errorDescription, "What went wrong, for a person."),
        ])
}
