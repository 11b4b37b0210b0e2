/// Why ``JSONReader`` refused its input, with a stable code and the byte offset where reading stopped.
package struct JSONReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The broken rule, stable across releases.
    package enum Code: String, Sendable, Hashable {
        /// The input ends inside a value.
        case truncated
        /// A byte that no JSON value may hold there (a trailing comma, a bare word, a missing colon).
        case unexpectedByte = "unexpected_byte"
        /// More than whitespace after the value.
        case trailingData = "trailing_data"
        /// A backslash escape JSON does not define, bad hex digits, or an unpaired UTF-16 surrogate.
        case badEscape = "bad_escape"
        /// A raw control character (below U+0020) inside a string.
        case controlCharacter = "control_character"
        /// A string that is not valid UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// A number JSON does not spell that way (`01`, `1.`, `-`, `1e`).
        case badNumber = "bad_number"
        /// A number too large for a `Double` (`1e400`).
        case hugeNumber = "huge_number"
        /// The same key twice in one object.
        case duplicateKey = "duplicate_key"
        /// Arrays and objects nested deeper than ``JSONReader/maxDepth``.
        case tooDeep = "too_deep"
        /// An array where an object was asked for.
        case notAnObject = "not_an_object"
        /// A bare string, number, `true`, `false` or `null` where an object was asked for: no JSON document, as
        /// `JSONSerialization` has it without `.fragmentsAllowed`.
        case fragment
    }

    package let code: Code
    /// The byte offset in the input where reading stopped.
    package let offset: Int

    package init(_ code: Code, at offset: Int) {
        self.code = code
        self.offset = offset
    }

    package var description: String { "\(code.rawValue) at byte \(offset)" }

    /// The refusal a request body gets: ``WireDecodingError/notAnObject`` for an array, a key sent
    /// twice named as such, and ``WireDecodingError/notJSON`` for the rest.
    package var wireError: WireDecodingError {
        switch code {
        case .notAnObject: .notAnObject
        case .duplicateKey: WireDecodingError("The body is not valid JSON: it has a key twice in one object.")
        case .tooDeep: WireDecodingError("The body is not valid JSON: it nests deeper than \(JSONReader.maxDepth) levels.")
        case .hugeNumber: WireDecodingError("The body is not valid JSON: it has a number too large to read.")
        default: .notJSON
        }
    }
}
