import AssentServerCore

extension StoreValue {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// PostgreSQL's text format, in which every value travels (bytea as `\x` hex, a boolean as `t`/`f`), for the
    /// server to parse into the column's type; nil for NULL.
    var textFormat: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
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
