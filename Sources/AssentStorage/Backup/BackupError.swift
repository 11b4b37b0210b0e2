/// Why a backup could not be made or restored. Equality looks at the code only; the reason names the file, table
/// or tenant that is wrong, for the operator.
package struct BackupError: Error, Hashable, CustomStringConvertible, Sendable {
    /// Stable error codes.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String { case damaged, newerSchema, exists, mismatch, unusable, toolFailed }
        fileprivate let value: Value
        /// A file of the backup is missing, changed or truncated, or the manifest cannot be read.
        package static let damaged = Code(value: .damaged)
        /// The backup has a schema step this build does not know (it was made by a newer `assentd`).
        package static let newerSchema = Code(value: .newerSchema)
        /// The target (backup folder, database or master key) exists and may not be replaced.
        package static let exists = Code(value: .exists)
        /// The restored database does not hold what the manifest says (row counts, audit heads, schema).
        package static let mismatch = Code(value: .mismatch)
        /// The source or target cannot be used (no database, wrong kind, no master key).
        package static let unusable = Code(value: .unusable)
        /// `pg_dump` or `pg_restore` is missing or failed.
        package static let toolFailed = Code(value: .toolFailed)
        /// The code's name.
        package var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    package let code: Code
    /// What is wrong, naming the file or database.
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

    package static func == (lhs: BackupError, rhs: BackupError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// The reason alone: it is written for the operator who runs the command.
    package var description: String { reason }
}
