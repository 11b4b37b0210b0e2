/// Decoding of `%XX` escapes in URL paths and query strings.
///
/// Only `%XX` sequences are decoded: a literal `+` stays `+` (the `+` → space
/// rule belongs to HTML form bodies, not URLs, and would corrupt base64 values).
enum PercentDecoding {
    /// Decodes every `%XX` in `raw` and requires the result to be valid UTF-8.
    ///
    /// Returns `nil` for a `%` not followed by two hex digits, or for bytes that
    /// do not form valid UTF-8 once decoded.
    static func decode(_ raw: Substring) -> String? {
        let utf8 = raw.utf8
        guard utf8.contains(UInt8(ascii: "%")) else { return String(raw) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex,
                      let high = hexValue(utf8[first]), let low = hexValue(utf8[second])
                else { return nil }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `raw`; see ``decode(_:)-(Substring)``.
    static func decode(_ raw: String) -> String? {
        decode(raw[...])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
