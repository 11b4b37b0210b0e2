/// A request's JSON object, read field by field by a ``WireDecodable`` type.
///
/// Every implementation keeps the same rules: a field may be spelled in camelCase or in snake_case (the official
/// Python SDK sends its attributes as given, often snake_case; see ``snakeCase(_:)``); a null field reads as absent
/// unless the type asks ``isNull(_:)``; unknown fields are ignored so newer clients keep working; a refusal is the
/// ``WireDecodingError`` of the broken rule, which names the field.
public protocol WireObject {
    /// Whether `field` is present as null.
    func isNull(_ field: String) -> Bool
    /// A string of at most `maxLength` UTF-8 bytes (and not empty unless `allowEmpty`); nil when absent or null.
    func string(_ field: String, maxLength: Int, allowEmpty: Bool) throws(WireDecodingError) -> String?
    /// `true` or `false`; nil when absent or null.
    func bool(_ field: String) throws(WireDecodingError) -> Bool?
    /// A whole number within `range`; nil when absent or null.
    func integer(_ field: String, range: ClosedRange<Int>) throws(WireDecodingError) -> Int?
    /// A JSON object of at most `maxBytes` bytes of JSON; nil when absent or null.
    func object(_ field: String, maxBytes: Int) throws(WireDecodingError) -> [String: JSONValue]?
}

extension WireObject {
    /// A string that may be empty; nil when absent or null.
    public func string(_ field: String, maxLength: Int) throws(WireDecodingError) -> String? {
        try string(field, maxLength: maxLength, allowEmpty: true)
    }

    /// A string that must be present and not empty.
    public func requiredString(_ field: String, maxLength: Int) throws(WireDecodingError) -> String {
        guard let value = try string(field, maxLength: maxLength, allowEmpty: false) else { throw .required(field) }
        return value
    }

    /// A string where null means "clear": nil when absent, `.some(nil)` when null.
    public func nullableString(_ field: String, maxLength: Int) throws(WireDecodingError) -> String?? {
        if isNull(field) { return .some(nil) }
        return try string(field, maxLength: maxLength).map { $0 }
    }

    /// A JSON object of at most 16 KiB of JSON; nil when absent or null.
    public func object(_ field: String) throws(WireDecodingError) -> [String: JSONValue]? {
        try object(field, maxBytes: 16 * 1024)
    }

    /// An object where null means "clear": nil when absent, `.some(nil)` when null.
    public func nullableObject(_ field: String) throws(WireDecodingError) -> [String: JSONValue]?? {
        if isNull(field) { return .some(nil) }
        return try object(field).map { $0 }
    }

    /// The snake_case spelling of a camelCase field name (`userAuthenticatorId` → `user_authenticator_id`), which
    /// every implementation looks up when the camelCase one is absent.
    public static func snakeCase(_ field: String) -> String {
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
