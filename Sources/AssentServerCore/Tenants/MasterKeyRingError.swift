/// Why a master key ring cannot be read or changed. Equality looks at the code only; the reason says what is wrong
/// and how to fix it, for the operator.
package struct MasterKeyRingError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Stable error codes.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String {
            case malformed, unknownVersion = "unknown_version", currentVersion = "current_version"
            case alreadyRetired = "already_retired", inUse = "in_use", notRotatable = "not_rotatable"
        }
        fileprivate let value: Value
        /// The ring's text is not a ring (a bad header, line, key or version).
        package static let malformed = Code(value: .malformed)
        /// No version with this number is in the ring.
        package static let unknownVersion = Code(value: .unknownVersion)
        /// The current version cannot be retired (rotate first).
        package static let currentVersion = Code(value: .currentVersion)
        /// The version is already retired.
        package static let alreadyRetired = Code(value: .alreadyRetired)
        /// A tenant secret (or sealed value) still depends on the version.
        package static let inUse = Code(value: .inUse)
        /// The key comes from `ASSENT_MASTER_KEY`, which a command cannot rewrite; the ring must be a file.
        package static let notRotatable = Code(value: .notRotatable)
        /// The code's name.
        package var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    package let code: Code
    /// What is wrong and how to fix it.
    package let reason: String
    /// Where it was raised.
    package let file: String
    /// Where it was raised.
    package let line: Int

    /// Creates an error.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    package static func == (lhs: MasterKeyRingError, rhs: MasterKeyRingError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// The reason alone: it is written for the operator.
    package var description: String { reason }
}
