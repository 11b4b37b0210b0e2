/// The one error type thrown by AssentCrypto.
///
/// Match on ``code`` (stable across releases); ``reason`` is a human-readable detail for logs and
/// may change. Two errors are equal when their codes are equal.
public struct CryptoError: Error, Hashable, CustomStringConvertible {
    /// A stable, machine-readable error category.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case invalidKey
            case invalidSignature
            case invalidInput
            case authenticationFailure
            case internalFailure
            case invalidToken
            case expiredToken
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// Key material is malformed, of the wrong size, on the wrong curve or otherwise unusable.
        public static let invalidKey = Code(.invalidKey)
        /// A signature is malformed or does not verify.
        public static let invalidSignature = Code(.invalidSignature)
        /// A parameter other than a key is out of range (length, count, size).
        public static let invalidInput = Code(.invalidInput)
        /// Authenticated decryption failed: wrong GCM tag, or bad CBC padding.
        public static let authenticationFailure = Code(.authenticationFailure)
        /// OpenSSL reported an unexpected failure.
        public static let internalFailure = Code(.internalFailure)
        /// A token is malformed, uses an unexpected algorithm, or its signature does not verify.
        public static let invalidToken = Code(.invalidToken)
        /// A token's signature is valid but it is expired or not yet valid.
        public static let expiredToken = Code(.expiredToken)

        /// The code's name, e.g. `invalidKey`.
        public var description: String { value.rawValue }
    }

    /// The stable error category.
    public let code: Code
    /// Human-readable detail (never contains key material).
    public let reason: String
    /// The file that raised the error (`#fileID`).
    public let file: String
    /// The line that raised the error.
    public let line: Int

    /// Creates an error with a code and a reason, recording where it was raised.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `CryptoError.<code>: <reason> (<file>:<line>)`.
    public var description: String {
        "CryptoError.\(code): \(reason) (\(file):\(line))"
    }

    /// Equality on ``code`` only.
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes ``code`` only, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
