/// Writes compact JSON into one byte buffer, for the wire types on the hot paths (``WireEncodable``): no intermediate
/// dictionary, no `Encoder` boxes, one growing array.
///
/// The output is what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes for the same values, byte for
/// byte: keys in the order the type writes them (sorted, in every conformance; `JSONEncoder` without `.sortedKeys`
/// follows no order at all on Linux), `nil` optionals left out, strings escaping only `"`, `\` and control characters
/// (`\b \f \n \r \t`, others as `\u00XX`), everything else as UTF-8. Whole numbers of ``JSONValue`` are written
/// without a fraction, as its `Encodable` does; its objects' keys are sorted.
package struct JSONWriter {
    /// The JSON written so far.
    package private(set) var bytes: [UInt8]
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    /// An empty writer with room for `capacity` bytes.
    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The bytes of `value` as JSON.
    package static func encode(_ value: some WireEncodable) -> [UInt8] {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.take()
    }

    /// Hands over the bytes, leaving the writer empty.
    package mutating func take() -> [UInt8] {
        let result = bytes
        bytes = []
        needsComma = false
        return result
    }

    // MARK: Structure

    /// Writes `{`, the members `body` writes, then `}`.
    package mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(opening: UInt8(ascii: "{"), closing: UInt8(ascii: "}"), body)
    }

    /// Writes `[`, the elements `body` writes, then `]`.
    package mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(opening: UInt8(ascii: "["), closing: UInt8(ascii: "]"), body)
    }

    /// An object or array: its opening byte, what `body` writes (the first item without a comma), its closing byte.
    private mutating func container(opening: UInt8, closing: UInt8, _ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(opening)
        needsComma = false
        body(&self)
        bytes.append(closing)
        needsComma = true
    }

    /// Writes `"key":` inside an object; the value written next belongs to it.
    package mutating func key(_ key: StaticString) {
        separate()
        if key.hasPointerRepresentation {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            bytes.append(UInt8(ascii: "\""))
        } else {
            appendString(key.description)
        }
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes `"key":` for a key only known at run time (a ``JSONValue`` object's).
    package mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    package mutating func value(_ value: String) {
        separate()
        appendString(value)
        needsComma = true
    }

    package mutating func value(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        needsComma = true
    }

    package mutating func value(_ value: Int64) {
        separate()
        appendInteger(value)
        needsComma = true
    }

    package mutating func value(_ value: Int) { self.value(Int64(value)) }

    /// A double as `JSONEncoder` writes it (`1.5`, `1e+100`); whole numbers with `.0` dropped; `null` when not finite.
    package mutating func value(_ value: Double) {
        separate()
        appendDouble(value)
        needsComma = true
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: Self.nullBytes)
        needsComma = true
    }

    /// Any wire type, as its ``WireEncodable/write(to:)`` says.
    package mutating func value(_ value: some WireEncodable) {
        value.write(to: &self)
    }

    /// Free-form JSON, as ``JSONValue``'s `Encodable` writes it, object keys sorted.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): self.value(flag)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.007_199_254_740_992e15 {
                self.value(Int64(number))
            } else {
                self.value(number)
            }
        case .string(let string): self.value(string)
        case .array(let elements):
            array { writer in
                for element in elements { writer.value(element) }
            }
        case .object(let members):
            object { writer in
                for name in members.keys.sorted() {
                    writer.key(name)
                    writer.value(members[name]!)
                }
            }
        }
    }

    /// An array of `elements`, each written by `element`.
    package mutating func array<S: Sequence>(_ elements: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        array { writer in
            for item in elements { element(&writer, item) }
        }
    }

    // MARK: Members

    /// Writes `"key":value`, or nothing when `value` is `nil`, as synthesized `Encodable` leaves out `nil` optionals.
    package mutating func member(_ key: StaticString, _ value: (some WireEncodable)?) {
        guard let value else { return }
        self.key(key)
        value.write(to: &self)
    }

    /// Writes `"key":value`, or `"key":null` when `value` is `nil`: the fields clients expect to find even when empty
    /// (written so by the type's own `encode(to:)`).
    package mutating func memberOrNull(_ key: StaticString, _ value: (some WireEncodable)?) {
        self.key(key)
        if let value { value.write(to: &self) } else { null() }
    }

    // MARK: Bytes

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let nullBytes: [UInt8] = Array("null".utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `string` as a JSON string literal: runs of plain bytes copied at once, escapes between them.
    private mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendInteger(_ value: Int64) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    private mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            bytes.append(contentsOf: Self.nullBytes)
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }
}
