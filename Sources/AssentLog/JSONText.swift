/// Building blocks for writing JSON text by hand (log lines, error bodies),
/// where going through `JSONEncoder` would cost more than the line itself.
package enum JSONText {
    /// Appends `value` as a JSON string literal (with quotes) to `output`.
    ///
    /// Escapes `"`, `\` and every control character below U+0020; everything
    /// else, including non-ASCII text, is written as UTF-8.
    package static func appendString(_ value: String, to output: inout String) {
        output.append("\"")
        var pendingStart = value.utf8.startIndex
        let utf8 = value.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let escape: String?
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20: escape = unicodeEscape(byte)
            default: escape = nil
            }
            if let escape {
                output.append(contentsOf: value[pendingStart..<index])
                output.append(escape)
                pendingStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output.append(contentsOf: value[pendingStart..<utf8.endIndex])
        output.append("\"")
    }

    /// `value` as a JSON string literal, with quotes.
    package static func string(_ value: String) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count + 2)
        appendString(value, to: &output)
        return output
    }

    /// A finite double as a JSON number; `null` for NaN and infinities, which JSON cannot express.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    private static func unicodeEscape(_ byte: UInt8) -> String {
        let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return "\\u00" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
    }
}
