/// Why an App Attest attestation was not made. Match on ``code``.
public struct AppAttestError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable error category.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case unsupported, serviceFailure
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The device cannot attest (simulator, a Mac without App Attest): enrol without attestation, and tell the user
        /// if your tenant requires it.
        public static let unsupported = Code(.unsupported)
        /// DeviceCheck refused or failed (no network to Apple, a rejected key, rate limiting).
        public static let serviceFailure = Code(.serviceFailure)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The stable category.
    public let code: Code
    /// Detail for logs.
    public let reason: String
    /// The file that raised it (`#fileID`).
    public let file: String
    /// The line that raised it.
    public let line: Int

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `AppAttestError.<code>: <reason>`.
    public var description: String { "AppAttestError.\(code): \(reason)" }

    /// Equality on ``code`` only.
    public static func == (lhs: AppAttestError, rhs: AppAttestError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
