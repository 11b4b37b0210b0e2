import AssentServerCore

/// A value bound to or read from SQLite.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// `.text` or `.null`.
    static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
    /// `.integer` or `.null`.
    static func optional(_ value: Int64?) -> SQLiteValue { value.map(SQLiteValue.integer) ?? .null }
    /// `.integer(0|1)`.
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}
