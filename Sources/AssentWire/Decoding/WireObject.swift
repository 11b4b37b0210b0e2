/// A request's JSON object, read field by field by a ``WireDecodable`` type.
///
/// Every implementation keeps the same rules: a field may be spelled in camelCase or in snake_case (the official
/// Python SDK sends its attributes as given, often snake_case; see ``snakeCase(_:)``); a null field reads as absent
/// unless the type asks ``isNull(_:)``; unknown fields are ignored so newer clients keep working; a refusal is the
/// ``WireDecodingError`` of the broken rule, which names the field. An implementation only parses: the rules for
/// strings (length, emptiness, ``WireCharacters``) are this protocol's extension, the same whatever the parser.
package protocol WireObject {
    /// Whether `field` is present as null.
    func isNull(_ field: String) -> Bool
    /// The string under `field` as sent, unchecked; nil when absent or null, ``WireDecodingError/wrongType(_:_:)``
    /// when not a string. Request types read strings through ``string(_:maxLength:allowEmpty:characters:)``.
    func rawString(_ field: String) throws(WireDecodingError) -> String?
    /// `true` or `false`; nil when absent or null.
    func bool(_ field: String) throws(WireDecodingError) -> Bool?
    /// A whole number within `range`; nil when absent or null.
    func integer(_ field: String, range: ClosedRange<Int>) throws(WireDecodingError) -> Int?
    /// A JSON object of at most `maxBytes` bytes of JSON; nil when absent or null.
    func object(_ field: String, maxBytes: Int) throws(WireDecodingError) -> [String: JSONValue]?
    /// An array of strings as sent, unchecked; nil when absent or null, ``WireDecodingError/wrongType(_:_:)`` when
    /// not an array of strings. Request types read it through ``actionCodes(_:maxCount:)``.
    func rawStrings(_ field: String) throws(WireDecodingError) -> [String]?
}

extension WireObject {
    /// A string of at most `maxLength` UTF-8 bytes, not empty unless `allowEmpty`, holding only what `characters`
    /// allows (by default an identifier's: no control character, never NUL); nil when absent or null.
    package func string(
        _ field: String, maxLength: Int, allowEmpty: Bool = true, characters: WireCharacters = .identifier
    ) throws(WireDecodingError) -> String? {
        guard let string = try rawString(field) else { return nil }
        guard string.utf8.count <= maxLength else { throw .tooLong(field, bytes: maxLength) }
        guard allowEmpty || !string.isEmpty else { throw .empty(field) }
        guard characters.allows(string) else { throw .characters(field, characters) }
        return string
    }

    /// A string that must be present and not empty.
    package func requiredString(
        _ field: String, maxLength: Int, characters: WireCharacters = .identifier
    ) throws(WireDecodingError) -> String {
        guard let value = try string(field, maxLength: maxLength, allowEmpty: false, characters: characters) else {
            throw .required(field)
        }
        return value
    }

    /// A string where null means "clear": nil when absent, `.some(nil)` when null.
    package func nullableString(
        _ field: String, maxLength: Int, characters: WireCharacters = .identifier
    ) throws(WireDecodingError) -> String?? {
        if isNull(field) { return .some(nil) }
        return try string(field, maxLength: maxLength, characters: characters).map { $0 }
    }

    /// An action code (``ActionCode``); nil when absent or null.
    package func actionCode(_ field: String) throws(WireDecodingError) -> String? {
        guard let code = try string(field, maxLength: ActionCode.maxLength) else { return nil }
        guard ActionCode.isValid(code) else { throw .notActionCode(field) }
        return code
    }

    /// An array of at most `maxCount` action codes (``ActionCode``); nil when absent or null.
    package func actionCodes(_ field: String, maxCount: Int) throws(WireDecodingError) -> [String]? {
        guard let codes = try rawStrings(field) else { return nil }
        guard codes.count <= maxCount else { throw .tooMany(field, maxCount) }
        for code in codes {
            guard !code.isEmpty, code.utf8.count <= ActionCode.maxLength, ActionCode.isValid(code) else {
                throw .notActionCode(field)
            }
        }
        return codes
    }

    /// A JSON object of at most 16 KiB of JSON; nil when absent or null.
    package func object(_ field: String) throws(WireDecodingError) -> [String: JSONValue]? {
        try object(field, maxBytes: 16 * 1024)
    }

    /// An object where null means "clear": nil when absent, `.some(nil)` when null.
    package func nullableObject(_ field: String) throws(WireDecodingError) -> [String: JSONValue]?? {
        if isNull(field) { return .some(nil) }
        return try object(field).map { $0 }
    }

    /// The snake_case spelling of a camelCase field name (`userAuthenticatorId` → `user_authenticator_id`), which
    /// every implementation looks up when the camelCase one is absent.
    package static func snakeCase(_ field: String) -> String {
        var result = ""
        for character in field {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
