import AssentServerCore

/// A value bound to a statement, the same for both dialects. SQLite binds it natively (a boolean as 0 or 1, as its
/// schema stores them); PostgreSQL sends it in its text format (``textFormat``) and the server parses it into the
/// column's type. ``SQLiteStatement`` also reads values back as this (for copying a whole table).
enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case bool(Bool)

    /// `.text` or `.null`.
    static func optional(_ value: String?) -> StoreValue { value.map(StoreValue.text) ?? .null }
    /// `.integer` or `.null`.
    static func optional(_ value: Int64?) -> StoreValue { value.map(StoreValue.integer) ?? .null }
    /// `.integer` or `.null`.
    static func optional(_ value: Int?) -> StoreValue { value.map { .integer(Int64($0)) } ?? .null }
    /// `.blob` or `.null`.
    static func optional(_ value: [UInt8]?) -> StoreValue { value.map(StoreValue.blob) ?? .null }
}
