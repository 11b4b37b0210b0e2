/// A request or response type declared once: its ``WireFields`` table names every field with its key path, its rules
/// and its description, and from it follow how a request reads it (``WireDecodable/init(reading:)``), how it is
/// written (``WireEncodable/write(to:)``) and its schema in the OpenAPI document (``WireNamed``).
///
/// The type's `Codable` conformance stays the one Swift synthesizes from its properties, so that the tests can hold
/// the table against it: what the table writes is byte for byte what `JSONEncoder` writes (same names, same fields).
package protocol WireSchema: WireValue, WireNamed {
    /// The type's fields, in the order a request reads them (the first broken rule is the refusal).
    static var wireFields: WireFields<Self> { get }
}

/// The field table of a ``WireSchema`` type.
package struct WireFields<Root>: Sendable {
    /// One line on the type, for the OpenAPI document.
    package let description: String
    /// The component's name when it is not the Swift type's (`SigningMessage` for ``SigningMessageResponse``).
    package let name: String?
    /// The fields in reading order.
    package let fields: [WireField<Root>]
    /// The fields' writers in writing order: by name, as `JSONEncoder` with `.sortedKeys` writes them. (The closures
    /// alone, so that writing copies no field description.)
    let writers: [@Sendable (Root, inout JSONWriter) -> Void]
    /// The fields' readers in reading order.
    let readers: [@Sendable (inout Root, any WireObject) throws(WireDecodingError) -> Void]
    /// The value a request is read into field by field (nil for a response type, which is never read).
    let blank: (@Sendable () -> Root)?
    /// Whether the schema is written where a field holds the type, instead of as a component (``WireNamed/wireInline``).
    package let isInline: Bool
    /// The type whose fields the answer carries besides its own (one object, the schema `allOf` both), with the line
    /// on the answer's own part; nil for most types.
    let base: (type: any WireNamed.Type, description: String)?

    /// The table of a response type; `inline` writes its schema in place where a field holds it.
    package init(_ description: String, name: String? = nil, inline: Bool = false, _ fields: [WireField<Root>]) {
        self.init(description, name: name, inline: inline, blank: nil, base: nil, fields, writing: fields)
    }

    /// The table of a request type, read into `blank()` (any value: every required field overwrites its part).
    package init(_ description: String, name: String? = nil, blank: (@Sendable () -> Root)?, _ fields: [WireField<Root>]) {
        self.init(description, name: name, inline: false, blank: blank, base: nil, fields, writing: fields)
    }

    /// The table of a response that is `Base` with fields of its own (an error envelope with more to say): it writes
    /// `Base`'s fields from the value at `base` and its own `fields` in one object, and its schema is `Base`'s and an
    /// object of its own fields, described as `ownDescription`.
    package init<Base: WireSchema>(
        _ description: String, name: String? = nil, extending base: any KeyPath<Root, Base> & Sendable,
        _ ownDescription: String, _ fields: [WireField<Root>]
    ) {
        let inherited = Base.wireFields.fields.map { WireField<Root>.inherited($0, through: base) }
        self.init(
            description, name: name, inline: false, blank: nil, base: (Base.self, ownDescription), fields,
            writing: inherited + fields)
    }

    private init(
        _ description: String, name: String?, inline: Bool, blank: (@Sendable () -> Root)?,
        base: (type: any WireNamed.Type, description: String)?, _ fields: [WireField<Root>], writing: [WireField<Root>]
    ) {
        self.description = description
        self.name = name
        self.fields = fields
        self.writers = writing.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map(\.write)
        self.readers = fields.map(\.read)
        self.blank = blank
        self.isInline = inline
        self.base = base
    }
}

extension WireSchema {
    /// Writes the fields the table lists, by name.
    package func write(to writer: inout JSONWriter) {
        let writers = Self.wireFields.writers
        writer.object { writer in
            for write in writers { write(self, &writer) }
        }
    }

    package static var wireType: WireType { .named(Self.self) }

    package static var wireName: String { wireFields.name ?? String(describing: Self.self) }

    package static var wireInline: Bool { wireFields.isInline }

    /// An object with the table's fields as properties; for a table extending another type, that type's schema and
    /// this object, both (`allOf`).
    package static var wireComponent: JSONValue {
        let table = wireFields
        var properties: [String: JSONValue] = [:]
        for field in table.fields {
            properties[field.name] = field.type.jsonSchema(description: field.description, nullable: field.isNullable)
        }
        var schema: [String: JSONValue] = [
            "type": .string("object"), "description": .string(table.base?.description ?? table.description),
            "properties": .object(properties),
        ]
        let required = table.fields.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema["required"] = .array(required) }
        guard let base = table.base else { return .object(schema) }
        return .object([
            "description": .string(table.description),
            "allOf": .array([WireType.named(base.type).jsonSchema(), .object(schema)]),
        ])
    }

    package static var wireReferences: [any WireNamed.Type] {
        let table = wireFields
        return (table.base.map { WireType.named($0.type).references } ?? []) + table.fields.flatMap(\.type.references)
    }
}

extension WireDecodable where Self: WireSchema {
    /// Reads the fields the table lists, in its order, with their rules.
    package init(reading body: some WireObject) throws(WireDecodingError) {
        let table = Self.wireFields
        guard let blank = table.blank else { preconditionFailure("\(Self.self) is read but its table has no blank value") }
        let object: any WireObject = body
        var value = blank()
        for read in table.readers { try read(&value, object) }
        self = value
    }
}
