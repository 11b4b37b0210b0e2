/// What a wire field holds, as the OpenAPI document describes it (``WireField`` carries one): the JSON Schema of a
/// value, without the field's description or whether it may be null.
package indirect enum WireType: Sendable {
    /// A string of at most `maxLength` UTF-8 bytes (nil: no limit), at least `minLength`, matching `pattern`, one of
    /// `oneOf` when given.
    case string(maxLength: Int? = nil, minLength: Int? = nil, pattern: String? = nil, oneOf: [String]? = nil)
    /// `true` or `false`.
    case boolean
    /// A whole number, within `range` when given.
    case integer(ClosedRange<Int>? = nil)
    /// Any number (a measurement such as a latency in milliseconds).
    case number
    /// Any JSON value.
    case any
    /// A JSON object whose members all hold `value` (free-form custom data: `.map(.any)`).
    case map(WireType)
    /// A JSON array of `element`s, at most `maxItems` when given.
    case array(WireType, maxItems: Int? = nil)
    /// A named type with a schema of its own (a component of the OpenAPI document).
    case named(any WireNamed.Type)
    /// Any of these.
    case anyOf([WireType])
}

extension WireType {
    /// The named types this type refers to.
    var references: [any WireNamed.Type] {
        switch self {
        case .string, .boolean, .integer, .number, .any: []
        case .map(let value): value.references
        case .array(let element, _): element.references
        case .named(let type): type.wireInline ? type.wireReferences : [type]
        case .anyOf(let types): types.flatMap(\.references)
        }
    }

    /// The JSON Schema of the type, described by `description` when given, also admitting null when `nullable`.
    package func jsonSchema(description: String? = nil, nullable: Bool = false) -> JSONValue {
        var schema: [String: JSONValue]
        switch self {
        case .string(let maxLength, let minLength, let pattern, let oneOf):
            schema = ["type": .string("string")]
            if let maxLength { schema["maxLength"] = .number(Double(maxLength)) }
            if let minLength { schema["minLength"] = .number(Double(minLength)) }
            if let pattern { schema["pattern"] = .string(pattern) }
            if let oneOf { schema["enum"] = .array(oneOf.map(JSONValue.string)) }
        case .boolean:
            schema = ["type": .string("boolean")]
        case .integer(let range):
            schema = ["type": .string("integer")]
            if let range {
                schema["minimum"] = .number(Double(range.lowerBound))
                schema["maximum"] = .number(Double(range.upperBound))
            }
        case .number:
            schema = ["type": .string("number")]
        case .any:
            schema = [:]
        case .map(.any):
            schema = ["type": .string("object"), "additionalProperties": .bool(true)]
        case .map(let value):
            schema = ["type": .string("object"), "additionalProperties": value.jsonSchema()]
        case .array(let element, let maxItems):
            schema = ["type": .string("array"), "items": element.jsonSchema()]
            if let maxItems { schema["maxItems"] = .number(Double(maxItems)) }
        case .named(let type) where type.wireInline:
            guard case .object(let component) = type.wireComponent else { preconditionFailure("\(type) is no object") }
            schema = component
        case .named(let type):
            schema = ["$ref": .string("#/components/schemas/" + type.wireName)]
        case .anyOf(let types):
            schema = ["anyOf": .array(types.map { $0.jsonSchema() })]
        }
        if nullable {
            if schema.isEmpty {
                // Any value already admits null.
            } else if case .string(let type)? = schema["type"] {
                schema["type"] = .array([.string(type), .string("null")])
            } else {
                schema = ["anyOf": .array([.object(schema), .object(["type": .string("null")])])]
            }
        }
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }
}
