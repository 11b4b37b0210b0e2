/// Just enough JSON reading for scenarios: find a key's string or boolean value without
/// decoding the whole document.
extension HTTPResponse {
    /// Whether the body contains `"key"` followed by a colon, i.e. the key is present.
    func hasJSONKey(_ key: String) -> Bool {
        valueStart(forKey: key) != nil
    }

    /// The string value of the first `"key": "…"` in the body, with simple
    /// escapes (`\"`, `\\`, `\/`) resolved; nil when absent or not a string.
    func jsonString(forKey key: String) -> String? {
        guard var index = valueStart(forKey: key), index < body.count, body[index] == UInt8(ascii: "\"") else {
            return nil
        }
        index += 1
        var value: [UInt8] = []
        while index < body.count {
            let byte = body[index]
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < body.count else { return nil }
                let escaped = body[index + 1]
                guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") || escaped == UInt8(ascii: "/") else {
                    return nil  // \n, \uXXXX, ...: not expected in tokens or ids
                }
                value.append(escaped)
                index += 2
            default:
                value.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// The boolean value of the first `"key": true|false` in the body; nil when absent or not a boolean.
    func jsonBool(forKey key: String) -> Bool? {
        guard let index = valueStart(forKey: key) else { return nil }
        for (literal, value) in [("true", true), ("false", false)] {
            let bytes = Array(literal.utf8)
            if index + bytes.count <= body.count, Array(body[index..<index + bytes.count]) == bytes { return value }
        }
        return nil
    }

    /// Index of the first non-space byte after `"key"` and its colon.
    private func valueStart(forKey key: String) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        guard needle.count <= body.count else { return nil }
        var start = 0
        while start + needle.count <= body.count {
            guard let found = Self.firstIndex(of: needle, in: body, from: start) else { return nil }
            var index = found + needle.count
            while index < body.count, Self.isSpace(body[index]) { index += 1 }
            if index < body.count, body[index] == UInt8(ascii: ":") {
                index += 1
                while index < body.count, Self.isSpace(body[index]) { index += 1 }
                return index
            }
            start = found + 1  // the text matched a value, not a key
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
