/// A strict JSON parser (RFC 8259) for request bodies, written for the hot paths: one pass over the bytes, no
/// Foundation objects, strings without escapes made straight from their bytes.
///
/// It refuses more than `JSONSerialization` does, on purpose: a key twice in one object (which a parser might read
/// as either value), nesting deeper than ``maxDepth``, a number that is not finite as a `Double` (`1e400`), invalid
/// UTF-8, an unpaired UTF-16 surrogate escape, and anything after the value. Every refusal is a ``JSONReadError``
/// with the byte offset where reading stopped.
package struct JSONReader {
    /// The deepest nesting of arrays and objects accepted (the top-level object is depth 1).
    package static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The one JSON value in `bytes` (whitespace around it allowed).
    package static func value(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        try withReader(bytes) { (reader: inout JSONReader) throws(JSONReadError) in
            try reader.readValue()
        }
    }

    /// The members of the JSON object in `bytes`, in the order sent (each key once):
    /// ``JSONReadError/Code/notAnObject`` for an array, ``JSONReadError/Code/fragment`` for any other JSON value.
    package static func object(_ bytes: [UInt8]) throws(JSONReadError) -> [(key: String, value: JSONValue)] {
        try withReader(bytes) { (reader: inout JSONReader) throws(JSONReadError) in
            guard reader.peek() == UInt8(ascii: "{") else {
                // Parse it anyway, so malformed JSON is told apart from well-formed JSON that is not an object.
                let isArray = reader.peek() == UInt8(ascii: "[")
                _ = try reader.readValue()
                reader.skipWhitespace()
                guard reader.index == reader.bytes.count else { throw JSONReadError(.trailingData, at: reader.index) }
                throw JSONReadError(isArray ? .notAnObject : .fragment, at: 0)
            }
            return try reader.readMembers()
        }
    }

    private static func withReader<T>(
        _ bytes: [UInt8], _ body: (inout JSONReader) throws(JSONReadError) -> T
    ) throws(JSONReadError) -> T {
        let result: Result<T, JSONReadError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do throws(JSONReadError) {
                reader.skipWhitespace()
                let value = try body(&reader)
                reader.skipWhitespace()
                guard reader.index == buffer.count else { throw JSONReadError(.trailingData, at: reader.index) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Values

    private mutating func readValue() throws(JSONReadError) -> JSONValue {
        guard let byte = peek() else { throw JSONReadError(.truncated, at: index) }
        switch byte {
        case UInt8(ascii: "{"):
            let members = try readMembers()
            var object: [String: JSONValue] = [:]
            object.reserveCapacity(members.count)
            for (key, value) in members { object[key] = value }
            return .object(object)
        case UInt8(ascii: "["): return .array(try readElements())
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw JSONReadError(.unexpectedByte, at: index)
        }
    }

    /// An object's members; the reader is at `{`.
    private mutating func readMembers() throws(JSONReadError) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        if try enterContainer(closedBy: UInt8(ascii: "}")) { return members }
        var keys: Set<String>?
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw JSONReadError(.truncated, at: index) }
            guard byte == UInt8(ascii: "\"") else { throw JSONReadError(.unexpectedByte, at: index) }
            let keyOffset = index
            let key = try readString()
            // Small objects (every request body) are checked by a scan; larger ones through a set.
            if members.count < 16 {
                for member in members where member.key == key { throw JSONReadError(.duplicateKey, at: keyOffset) }
            } else {
                if keys == nil { keys = Set(members.map(\.key)) }
                guard keys!.insert(key).inserted else { throw JSONReadError(.duplicateKey, at: keyOffset) }
            }
            skipWhitespace()
            guard let colon = peek() else { throw JSONReadError(.truncated, at: index) }
            guard colon == UInt8(ascii: ":") else { throw JSONReadError(.unexpectedByte, at: index) }
            index += 1
            skipWhitespace()
            members.append((key, try readValue()))
            if try leaveOrContinue(closedBy: UInt8(ascii: "}")) { return members }
        }
    }

    /// An array's elements; the reader is at `[`.
    private mutating func readElements() throws(JSONReadError) -> [JSONValue] {
        var elements: [JSONValue] = []
        if try enterContainer(closedBy: UInt8(ascii: "]")) { return elements }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            if try leaveOrContinue(closedBy: UInt8(ascii: "]")) { return elements }
        }
    }

    /// Steps into an object or array (the reader is at its opening byte) and to its first member or element; true
    /// when it is empty, the closing byte read and the container left.
    private mutating func enterContainer(closedBy closing: UInt8) throws(JSONReadError) -> Bool {
        depth += 1
        guard depth <= Self.maxDepth else { throw JSONReadError(.tooDeep, at: index) }
        index += 1
        skipWhitespace()
        guard peek() == closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After a member or element: true at the closing byte (read, and the container left), false past a comma.
    private mutating func leaveOrContinue(closedBy closing: UInt8) throws(JSONReadError) -> Bool {
        skipWhitespace()
        guard let next = peek() else { throw JSONReadError(.truncated, at: index) }
        index += 1
        if next == closing {
            depth -= 1
            return true
        }
        guard next == UInt8(ascii: ",") else { throw JSONReadError(.unexpectedByte, at: index - 1) }
        return false
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard index + offset < bytes.count else { throw JSONReadError(.truncated, at: bytes.count) }
            guard bytes[index + offset] == literal.utf8Start[offset] else {
                throw JSONReadError(.unexpectedByte, at: index + offset)
            }
        }
        index += count
    }

    // MARK: Strings

    /// A string; the reader is at its opening quote.
    private mutating func readString() throws(JSONReadError) -> String {
        index += 1
        let start = index
        // Fast path: no escape before the closing quote.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = try Self.validated(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONReadError(.controlCharacter, at: index) }
            index += 1
        }
        guard index < bytes.count else { throw JSONReadError(.truncated, at: index) }
        var decoded = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw JSONReadError(.truncated, at: index) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try decoded.withUnsafeBufferPointer { (buffer) throws(JSONReadError) -> String in
                    try Self.validated(buffer, at: start)
                }
            case UInt8(ascii: "\\"):
                try readEscape(into: &decoded)
            case 0..<0x20:
                throw JSONReadError(.controlCharacter, at: index)
            default:
                decoded.append(byte)
                index += 1
            }
        }
    }

    private static func validated(_ utf8: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONReadError) -> String {
        guard let string = String(validating: utf8, as: UTF8.self) else { throw JSONReadError(.invalidUTF8, at: offset) }
        return string
    }

    /// One escape sequence; the reader is at its backslash.
    private mutating func readEscape(into decoded: inout [UInt8]) throws(JSONReadError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw JSONReadError(.truncated, at: index) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try readHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONReadError(.badEscape, at: escapeStart) }
                index += 2
                let low = UInt32(try readHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONReadError(.badEscape, at: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONReadError(.badEscape, at: escapeStart)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw JSONReadError(.badEscape, at: escapeStart) }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw JSONReadError(.badEscape, at: escapeStart)
        }
    }

    private mutating func readHex4() throws(JSONReadError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw JSONReadError(.truncated, at: bytes.count) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONReadError(.badEscape, at: index)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers

    /// A number as RFC 8259 spells it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws(JSONReadError) -> Double {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = peek() else { throw JSONReadError(.truncated, at: index) }
        guard Self.isDigit(first) else { throw JSONReadError(.badNumber, at: index) }
        var integer: UInt64 = 0
        var digits = 0
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), Self.isDigit(next) { throw JSONReadError(.badNumber, at: index) }
        } else {
            while let byte = peek(), Self.isDigit(byte) {
                if digits < 18 { integer = integer * 10 + UInt64(byte - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = peek(), Self.isDigit(byte) else { throw JSONReadError(peek() == nil ? .truncated : .badNumber, at: index) }
            while let byte = peek(), Self.isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), Self.isDigit(byte) else { throw JSONReadError(peek() == nil ? .truncated : .badNumber, at: index) }
            while let byte = peek(), Self.isDigit(byte) { index += 1 }
        }
        // Whole numbers of up to 15 digits are exact as doubles: no text conversion.
        if isInteger, digits <= 15 {
            let value = Double(integer)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONReadError(.hugeNumber, at: start) }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Bytes

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
