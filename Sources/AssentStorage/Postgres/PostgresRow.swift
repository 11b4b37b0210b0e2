import AssentServerCore

/// One row of a result, copied out of libpq (text format), read by column index.
struct PostgresRow: StoreRow, Sendable {
    let values: [String?]

    func int64(_ column: Int) -> Int64 { values[column].flatMap { Int64($0) } ?? 0 }
    func optionalInt64(_ column: Int) -> Int64? { values[column].flatMap { Int64($0) } }
    func bool(_ column: Int) -> Bool { values[column] == "t" }
    func string(_ column: Int) throws -> String {
        guard let value = values[column] else { throw StoreError(.corrupt, "column \(column) is null") }
        return value
    }
    func optionalString(_ column: Int) -> String? { values[column] }
    func blob(_ column: Int) -> [UInt8] { optionalBlob(column) ?? [] }
    func optionalBlob(_ column: Int) -> [UInt8]? {
        guard let text = values[column] else { return nil }
        return Self.decodeHex(text)
    }

    /// Decodes bytea's hex output (`\x0a1b...`).
    static func decodeHex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x") else { return [] }
        bytes.reserveCapacity((utf8.count - 2) / 2)
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return 0
            }
        }
        var index = 2
        while index + 1 < utf8.count {
            bytes.append(nibble(utf8[index]) << 4 | nibble(utf8[index + 1]))
            index += 2
        }
        return bytes
    }
}
