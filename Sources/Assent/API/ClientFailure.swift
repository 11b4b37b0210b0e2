/// A failed step inside an SDK operation: what becomes ``AssentResponse/error`` and ``AssentResponse/errorCode``.
struct ClientFailure: Error, Sendable {
    let error: String
    let errorCode: String
    /// The HTTP status of the server's refusal, when the failure is one.
    var httpStatus: Int?

    init(_ error: String, _ errorCode: String) {
        self.error = error
        self.errorCode = errorCode
    }

    static let tokenNotSet = ClientFailure("A token has not been set. Call 'setToken' first.", AssentErrorCode.tokenNotSet)
    static let credentialNotFound = ClientFailure(
        "No credential found on this device. Call 'addCredential' first.", AssentErrorCode.credentialNotFound)
    static let decoding = ClientFailure("Decoding error.", AssentErrorCode.decodingError)
    /// Whether this is the 404-without-a-body answer (a path the server does not have).
    var isEndpointNotFound: Bool {
        errorCode == Self.endpointNotFound.errorCode && error == Self.endpointNotFound.error
    }

    /// Whether the server refused the call's signature or credential (`invalid_signature`, `invalid_credential`):
    /// what a credential id the server no longer gives this key's credential leads to.
    var refusesCredential: Bool {
        httpStatus != nil && [AssentErrorCode.invalidSignature, AssentErrorCode.invalidCredential].contains(errorCode)
    }

    static let endpointNotFound = ClientFailure(
        "API endpoint not found. Ensure your base URL is valid.", AssentErrorCode.apiError)
}
