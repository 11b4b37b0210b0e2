import AssentServerCore

/// A value bound to a PostgreSQL statement. Every value travels in PostgreSQL's text format, so the server parses it
/// into the column's type (bytea as `\x` hex); `nil` is SQL NULL.
enum PostgresValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case bool(Bool)

    /// `.text` or `.null`.
    static func optional(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
    /// `.integer` or `.null`.
    static func optional(_ value: Int64?) -> PostgresValue { value.map(PostgresValue.integer) ?? .null }
    /// `.blob` or `.null`.
    static func optional(_ value: [UInt8]?) -> PostgresValue { value.map(PostgresValue.blob) ?? .null }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The text-format representation, nil for NULL.
    var textFormat: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .text(let value): return value
        case .bool(let value): return value ? "t" : "f"
        case .blob(let bytes):
            var out = [UInt8]("\\x".utf8)
            out.reserveCapacity(2 + bytes.count * 2)
            for byte in bytes {
                out.append(Self.hexDigits[Int(byte >> 4)])
                out.append(Self.hexDigits[Int(byte & 0x0f)])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
