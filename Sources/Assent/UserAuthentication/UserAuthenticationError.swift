/// Why a user authentication did not succeed. Match on ``code``; equality looks at the code only.
public struct UserAuthenticationError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable error category.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case failed, canceled, lockout, notEnrolled, notAvailable, busy
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The user tried and was not recognised (wrong finger, wrong passphrase).
        public static let failed = Code(.failed)
        /// The user (or the system) dismissed the prompt.
        public static let canceled = Code(.canceled)
        /// Too many failures: biometrics are locked.
        public static let lockout = Code(.lockout)
        /// The method is supported but nothing is enrolled.
        public static let notEnrolled = Code(.notEnrolled)
        /// No allowed method is available on this device.
        public static let notAvailable = Code(.notAvailable)
        /// Another authentication is in progress; only one may run at a time.
        public static let busy = Code(.busy)

        /// The code's name, e.g. `lockout`.
        public var description: String { value.rawValue }

        /// The SDK's ``AssentErrorCode`` for this category.
        public var errorCode: String {
            switch value {
            case .failed: AssentErrorCode.userAuthenticationFailed
            case .canceled: AssentErrorCode.userAuthenticationCanceled
            case .lockout: AssentErrorCode.biometryLockout
            case .notEnrolled, .notAvailable: AssentErrorCode.userAuthenticationNotAvailable
            case .busy: AssentErrorCode.biometryBusy
            }
        }
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

    /// `UserAuthenticationError.<code>: <reason>`.
    public var description: String { "UserAuthenticationError.\(code): \(reason)" }

    /// Equality on ``code`` only.
    public static func == (lhs: UserAuthenticationError, rhs: UserAuthenticationError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
