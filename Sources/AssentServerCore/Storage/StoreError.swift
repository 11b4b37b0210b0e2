/// A storage failure. Equality looks at the code only.
package struct StoreError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Stable error codes.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String { case openFailed, migrationFailed, queryFailed, constraintViolation, busy, closed, corrupt }
        fileprivate let value: Value
        /// The database could not be opened.
        package static let openFailed = Code(value: .openFailed)
        /// A migration failed; the database is left at the last good version.
        package static let migrationFailed = Code(value: .migrationFailed)
        /// A statement failed.
        package static let queryFailed = Code(value: .queryFailed)
        /// A uniqueness or foreign-key rule refused the change.
        package static let constraintViolation = Code(value: .constraintViolation)
        /// The database stayed locked by another process too long.
        package static let busy = Code(value: .busy)
        /// The store was closed.
        package static let closed = Code(value: .closed)
        /// Data in the database is not what Assent wrote.
        package static let corrupt = Code(value: .corrupt)
        /// The code's name.
        package var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    package let code: Code
    /// Details for the operator's log (never shown to API clients).
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

    package static func == (lhs: StoreError, rhs: StoreError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: reason (file:line)`.
    package var description: String { "\(code): \(reason) (\(file):\(line))" }
}
