/// Why a request body was refused, in words for the caller that name the field, e.g. `publicKey must be a string.`
/// (the server answers it as `400 invalid_request`). The constructors below are the only wording of each rule.
package struct WireDecodingError: Error, Hashable, Sendable {
    /// What the caller did wrong.
    package let reason: String

    /// A refusal with its own wording, for rules of one request type.
    package init(_ reason: String) { self.reason = reason }

    /// The body does not parse as JSON (a bare string or number counts as no JSON).
    package static let notJSON = Self("The body is not valid JSON.")
    /// The body is JSON but not an object.
    package static let notAnObject = Self("The body must be a JSON object.")

    /// `field` holds another type than `expected` ("a string", "true or false", "a JSON object").
    package static func wrongType(_ field: String, _ expected: String) -> Self { Self("\(field) must be \(expected).") }
    /// A required `field` is absent or null.
    package static func required(_ field: String) -> Self { Self("\(field) is required.") }
    /// `field` is an empty string where that is not allowed.
    package static func empty(_ field: String) -> Self { Self("\(field) must not be empty.") }
    /// The string `field` is over `bytes` UTF-8 bytes.
    package static func tooLong(_ field: String, bytes: Int) -> Self { Self("\(field) must be at most \(bytes) bytes.") }
    /// The string `field` holds a character `characters` does not allow (see ``WireCharacters``).
    package static func characters(_ field: String, _ characters: WireCharacters) -> Self {
        switch characters {
        case .identifier: Self("\(field) must not contain control or bidirectional-override characters.")
        case .text: Self("\(field) must not contain NUL characters.")
        }
    }
    /// `field` is no action code (``ActionCode``).
    package static func notActionCode(_ field: String) -> Self {
        Self("\(field) may hold only letters, digits and _ - . :")
    }
    /// The object `field` is over `jsonBytes` bytes of JSON.
    package static func tooLarge(_ field: String, jsonBytes: Int) -> Self {
        Self("\(field) must be at most \(jsonBytes) bytes of JSON.")
    }
    /// `field` is no whole number in `range`.
    package static func notInRange(_ field: String, _ range: ClosedRange<Int>) -> Self {
        Self("\(field) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
    }
    /// The array `field` has more than `count` entries.
    package static func tooMany(_ field: String, _ count: Int) -> Self {
        Self("\(field) may hold at most \(count) entries.")
    }
    /// `field` is none of `allowed`.
    package static func notOneOf(_ field: String, _ allowed: [String]) -> Self {
        Self("\(field) must be one of " + allowed.joined(separator: ", ") + ".")
    }
}
