/// Why a ``KeyStore`` could not do what was asked. Match on ``code``; ``reason`` is for people and logs (it never
/// contains key material). Two errors are equal when their codes are equal.
public struct KeyStoreError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable error category.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case invalidName, wrongPassphrase, passphraseRequired, protectionMismatch, insecurePermissions, corrupted
            case ioFailure
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The key name has characters a store cannot use (see ``KeyStore``).
        public static let invalidName = Code(.invalidName)
        /// The key was sealed under a passphrase and this one does not open it.
        public static let wrongPassphrase = Code(.wrongPassphrase)
        /// The key was sealed under a passphrase but the store was opened without one.
        public static let passphraseRequired = Code(.passphraseRequired)
        /// The key was sealed with the store's random key file but the store was opened with a passphrase.
        public static let protectionMismatch = Code(.protectionMismatch)
        /// The directory or a file in it can be read by other users, or belongs to another user.
        public static let insecurePermissions = Code(.insecurePermissions)
        /// A key file is malformed, fails authentication, or its parts do not match.
        public static let corrupted = Code(.corrupted)
        /// The file system refused (permissions, disk full, ...).
        public static let ioFailure = Code(.ioFailure)

        /// The code's name, e.g. `wrongPassphrase`.
        public var description: String { value.rawValue }
    }

    /// The stable category.
    public let code: Code
    /// What happened, for people.
    public let reason: String
    /// Where it was raised (`#fileID`).
    public let file: String
    /// Where it was raised.
    public let line: Int

    /// Creates an error, recording where it was raised.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `KeyStoreError.<code>: <reason>`.
    public var description: String { "KeyStoreError.\(code): \(reason)" }

    /// Equality on ``code`` only.
    public static func == (lhs: KeyStoreError, rhs: KeyStoreError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension KeyStoreError {
    /// `error`, from a key store, as the SDK's messages quote it: a ``KeyStoreError``'s ``reason`` alone (written for
    /// people; the type name and code are for code, which has ``AssentResponse/errorCode``), anything else as it
    /// describes itself.
    static func text(_ error: any Error) -> String {
        (error as? KeyStoreError)?.reason ?? String(describing: error)
    }
}
