import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation

/// A request's JSON object body, read field by field with clear errors. Every field may be spelled in camelCase or
/// in snake_case (the official Python SDK sends its attributes as given, often snake_case); unknown fields are
/// ignored so newer clients keep working.
struct JSONBody {
    private let object: [String: Any]

    /// Parses the body. An empty body is `{}`; anything else must be `application/json` holding a JSON object.
    init(_ request: HTTPRequest) throws {
        if request.body.isEmpty || request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            object = [:]
            return
        }
        if let contentType = request.headers["Content-Type"] {
            let mediaType = contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() }
            guard mediaType == "application/json" else {
                throw AssentError(.unsupportedMediaType, "The body must be application/json.")
            }
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(request.body), options: [])
        } catch {
            throw AssentError(.invalidRequest, "The body is not valid JSON.")
        }
        guard let object = parsed as? [String: Any] else {
            throw AssentError(.invalidRequest, "The body must be a JSON object.")
        }
        self.object = object
    }

    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The raw value under `name` (or its snake_case spelling): nil when absent, `NSNull` when null.
    private func raw(_ name: String) -> Any? {
        object[name] ?? object[Self.snakeCase(name)]
    }

    /// Whether the field is present (even as null).
    func has(_ name: String) -> Bool { raw(name) != nil }

    /// A string field; nil when absent or null.
    func string(_ name: String, maxLength: Int = 1024, allowEmpty: Bool = true) throws -> String? {
        guard let value = raw(name), !(value is NSNull) else { return nil }
        guard let string = value as? String else {
            throw AssentError(.invalidRequest, "\(name) must be a string.")
        }
        guard string.utf8.count <= maxLength else {
            throw AssentError(.invalidRequest, "\(name) must be at most \(maxLength) bytes.")
        }
        guard allowEmpty || !string.isEmpty else {
            throw AssentError(.invalidRequest, "\(name) must not be empty.")
        }
        return string
    }

    /// A required string field.
    func requiredString(_ name: String, maxLength: Int = 1024) throws -> String {
        guard let string = try string(name, maxLength: maxLength, allowEmpty: false) else {
            throw AssentError(.invalidRequest, "\(name) is required.")
        }
        return string
    }

    /// A string field where null means "clear": nil when absent, `.some(nil)` when null.
    func nullableString(_ name: String, maxLength: Int = 1024) throws -> String?? {
        guard let value = raw(name) else { return nil }
        if value is NSNull { return .some(nil) }
        return .some(try string(name, maxLength: maxLength))
    }

    /// A boolean field; nil when absent or null.
    func bool(_ name: String) throws -> Bool? {
        guard let value = raw(name), !(value is NSNull) else { return nil }
        guard JSONValue.isBoolean(value), let number = value as? NSNumber else {
            throw AssentError(.invalidRequest, "\(name) must be true or false.")
        }
        return number.boolValue
    }

    /// A whole-number field within `range`; nil when absent or null.
    func integer(_ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let value = raw(name), !(value is NSNull) else { return nil }
        guard !JSONValue.isBoolean(value), let number = value as? NSNumber,
              let integer = Int(exactly: number.doubleValue), range.contains(integer)
        else {
            throw AssentError(.invalidRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return integer
    }

    /// A JSON object field; nil when absent or null.
    func object(_ name: String, maxBytes: Int = 16 * 1024) throws -> [String: JSONValue]? {
        guard let value = raw(name), !(value is NSNull) else { return nil }
        guard value is [String: Any], let converted = JSONValue(foundation: value)?.objectValue else {
            throw AssentError(.invalidRequest, "\(name) must be a JSON object.")
        }
        guard let data = try? JSONSerialization.data(withJSONObject: value), data.count <= maxBytes else {
            throw AssentError(.invalidRequest, "\(name) must be at most \(maxBytes) bytes of JSON.")
        }
        return converted
    }

    /// An object field where null means "clear".
    func nullableObject(_ name: String) throws -> [String: JSONValue]?? {
        guard let value = raw(name) else { return nil }
        if value is NSNull { return .some(nil) }
        return .some(try object(name))
    }
}
