/// A request body's members as ``JSONReader`` read them, looked up as ``WireObject`` says: camelCase first, then its
/// snake_case spelling (compared in place, no string made), null reading as absent.
///
/// Request bodies hold a handful of members, so a scan of the array beats hashing every key.
package struct JSONObjectFields: WireObject {
    /// The members in the order sent, each key once.
    package let members: [(key: String, value: JSONValue)]

    package init(members: [(key: String, value: JSONValue)]) {
        self.members = members
    }

    /// Reads the JSON object in `bytes`; a refusal is the ``WireDecodingError`` a request body gets.
    package init(json bytes: [UInt8]) throws(WireDecodingError) {
        do {
            members = try JSONReader.object(bytes)
        } catch {
            throw error.wireError
        }
    }

    /// The value under `field` or its snake_case spelling: nil when absent.
    private func raw(_ field: String) -> JSONValue? {
        for member in members where member.key == field { return member.value }
        for member in members where Self.isSnakeCase(member.key, of: field) { return member.value }
        return nil
    }

    /// The value when present and not null.
    private func value(_ field: String) -> JSONValue? {
        guard let value = raw(field), value != .null else { return nil }
        return value
    }

    /// Whether `key` is ``WireObject/snakeCase(_:)`` of `field`, compared byte by byte.
    package static func isSnakeCase(_ key: String, of field: String) -> Bool {
        var keyBytes = key.utf8.makeIterator()
        var sawUppercase = false
        for byte in field.utf8 {
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") {
                sawUppercase = true
                guard keyBytes.next() == UInt8(ascii: "_"), keyBytes.next() == byte + 32 else { return false }
            } else if byte >= 0x80 {
                // Not an ASCII field name: spell it out the long way.
                let snake = snakeCase(field)
                return snake != field && key == snake
            } else {
                guard keyBytes.next() == byte else { return false }
            }
        }
        return sawUppercase && keyBytes.next() == nil
    }

    package func isNull(_ field: String) -> Bool { raw(field) == .null }

    package func rawString(_ field: String) throws(WireDecodingError) -> String? {
        guard let value = value(field) else { return nil }
        guard case .string(let string) = value else { throw .wrongType(field, "a string") }
        return string
    }

    package func bool(_ field: String) throws(WireDecodingError) -> Bool? {
        guard let value = value(field) else { return nil }
        guard case .bool(let flag) = value else { throw .wrongType(field, "true or false") }
        return flag
    }

    package func integer(_ field: String, range: ClosedRange<Int>) throws(WireDecodingError) -> Int? {
        guard let value = value(field) else { return nil }
        guard case .number(let number) = value, let integer = Int(exactly: number), range.contains(integer) else {
            throw .notInRange(field, range)
        }
        return integer
    }

    package func rawStrings(_ field: String) throws(WireDecodingError) -> [String]? {
        guard let value = value(field) else { return nil }
        guard case .array(let elements) = value else { throw .wrongType(field, "an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else { throw .wrongType(field, "an array of strings") }
            strings.append(string)
        }
        return strings
    }

    package func object(_ field: String, maxBytes: Int) throws(WireDecodingError) -> [String: JSONValue]? {
        guard let value = value(field) else { return nil }
        guard case .object(let object) = value else { throw .wrongType(field, "a JSON object") }
        var writer = JSONWriter(capacity: 64)
        writer.value(value)
        guard writer.bytes.count <= maxBytes else { throw .tooLarge(field, jsonBytes: maxBytes) }
        return object
    }
}
