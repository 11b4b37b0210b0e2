/// One CBOR data item of the kinds App Attest uses (RFC 8949 major types 0–5). Tags, floats, simple values and
/// indefinite lengths are refused by ``CBORReader``, so they have no case here.
package enum CBORValue: Sendable, Hashable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is `-1 - n` for the stored `n`.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in encoded order (keys are unique).
    case map([CBORMapEntry])

    /// The value for a text key of a map, or nil.
    package subscript(key: String) -> CBORValue? {
        self[.text(key)]
    }

    /// The value for `key` of a map, or nil (also when this is not a map).
    package subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The integer `n` for `.unsigned(n)` and `-1 - n` for `.negative(n)`, when it fits an `Int64`.
    package var integer: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The bytes of a byte string, or nil.
    package var bytes: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The string of a text string, or nil.
    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The items of an array, or nil.
    package var array: [CBORValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}
