/// A storage failure. Equality looks at the code only.
public struct StoreError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Stable error codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String { case openFailed, migrationFailed, queryFailed, constraintViolation, busy, closed, corrupt }
        fileprivate let value: Value
        /// The database could not be opened.
        public static let openFailed = Code(value: .openFailed)
        /// A migration failed; the database is left at the last good version.
        public static let migrationFailed = Code(value: .migrationFailed)
        /// A statement failed.
        public static let queryFailed = Code(value: .queryFailed)
        /// A uniqueness or foreign-key rule refused the change.
        public static let constraintViolation = Code(value: .constraintViolation)
        /// The database stayed locked by another process too long.
        public static let busy = Code(value: .busy)
        /// The store was closed.
        public static let closed = Code(value: .closed)
        /// Data in the database is not what Assent wrote.
        public static let corrupt = Code(value: .corrupt)
        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// Details for the operator's log (never shown to API clients).
    public let reason: String
    /// Where it was raised.
    public let file: String
    /// Where it was raised.
    public let line: Int

    /// Creates an error.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    public static func == (lhs: StoreError, rhs: StoreError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: reason (file:line)`.
    public var description: String { "\(code): \(reason) (\(file):\(line))" }
}
