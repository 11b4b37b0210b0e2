/// One field of a ``WireSchema`` type, declared once in its ``WireFields`` table: the name on the wire, where it lives
/// (a key path), how a request reads it (limits, characters, required or nullable), how a response writes it, and what
/// the OpenAPI document says of it. The factories below are the only ways to make one, one per reading rule.
package struct WireField<Root>: Sendable {
    /// The name on the wire (camelCase; a request may also send its snake_case spelling, see ``WireObject``).
    package let name: String
    /// What the field holds.
    package let type: WireType
    /// Whether a request must send it (or a response always writes it).
    package let isRequired: Bool
    /// Whether null is a value of its own (a request clearing the field, a response writing `null`).
    package let isNullable: Bool
    /// One line for the OpenAPI document.
    package let description: String?
    /// Reads the field from a request into the value being built, throwing the refusal of the rule it breaks.
    let read: @Sendable (inout Root, any WireObject) throws(WireDecodingError) -> Void
    /// Writes `"name":value` (or nothing, for an absent optional).
    let write: @Sendable (Root, inout JSONWriter) -> Void

    private init(
        _ key: StaticString, _ type: WireType, required: Bool = false, nullable: Bool = false, _ description: String?,
        read: @escaping @Sendable (inout Root, any WireObject) throws(WireDecodingError) -> Void,
        write: @escaping @Sendable (Root, inout JSONWriter) -> Void
    ) {
        self.init(name: String(describing: key), type: type, isRequired: required, isNullable: nullable,
                  description: description, read: read, write: write)
    }

    /// The same field, with `check` run on the value read so far right after this field is read (for a rule that
    /// ties it to fields read before it).
    package func checked(_ check: @escaping @Sendable (Root) throws(WireDecodingError) -> Void) -> Self {
        let read = self.read
        return Self(name: name, type: type, isRequired: isRequired, isNullable: isNullable, description: description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        try read(&value, body)
                        try check(value)
                    }, write: write)
    }

    /// The same field, described as admitting null: for an optional request field some client sends as null (which
    /// reads as absent, as every null does).
    package func acceptingNull() -> Self {
        Self(name: name, type: type, isRequired: isRequired, isNullable: true, description: description, read: read,
             write: write)
    }

    /// `field` of the value at `path`, written as a field of `Root` (the fields a table extending `Base` carries).
    static func inherited<Base>(_ field: WireField<Base>, through path: any KeyPath<Root, Base> & Sendable) -> Self {
        let write = field.write
        return Self(name: field.name, type: field.type, isRequired: field.isRequired, isNullable: field.isNullable,
                    description: field.description, read: { _, _ in },
                    write: { value, writer in write(value[keyPath: path], &writer) })
    }

    private init(
        name: String, type: WireType, isRequired: Bool, isNullable: Bool, description: String?,
        read: @escaping @Sendable (inout Root, any WireObject) throws(WireDecodingError) -> Void,
        write: @escaping @Sendable (Root, inout JSONWriter) -> Void
    ) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.isNullable = isNullable
        self.description = description
        self.read = read
        self.write = write
    }
}

// MARK: Request fields: read, written and described.

extension WireField {
    /// An optional string of at most `maxLength` UTF-8 bytes, not empty unless `allowEmpty`, holding only what
    /// `characters` allows.
    package static func string(
        _ key: StaticString, _ path: any WritableKeyPath<Root, String?> & Sendable, maxLength: Int, allowEmpty: Bool = true,
        characters: WireCharacters = .identifier, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .string(maxLength: maxLength, minLength: allowEmpty ? nil : 1), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.string(
                            name, maxLength: maxLength, allowEmpty: allowEmpty, characters: characters)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A string that must be present and not empty.
    package static func requiredString(
        _ key: StaticString, _ path: any WritableKeyPath<Root, String> & Sendable, maxLength: Int,
        characters: WireCharacters = .identifier, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .string(maxLength: maxLength, minLength: 1), required: true, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.requiredString(name, maxLength: maxLength, characters: characters)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A string where null means "clear": nil when absent, `.some(nil)` when null.
    package static func nullableString(
        _ key: StaticString, _ path: any WritableKeyPath<Root, String??> & Sendable, maxLength: Int,
        characters: WireCharacters = .identifier, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .string(maxLength: maxLength), nullable: true, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.nullableString(name, maxLength: maxLength, characters: characters)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A string that must be one of `allowed` (refused with `refusal`), `absent` when not sent.
    package static func choice(
        _ key: StaticString, _ path: any WritableKeyPath<Root, String> & Sendable, maxLength: Int, allowed: [String],
        absent: String, refusal: String, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .string(oneOf: allowed), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        let choice = try body.string(name, maxLength: maxLength) ?? absent
                        guard allowed.contains(choice) else { throw WireDecodingError(refusal) }
                        value[keyPath: path] = choice
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional `true` or `false`.
    package static func bool(_ key: StaticString, _ path: any WritableKeyPath<Root, Bool?> & Sendable, _ description: String?) -> Self {
        let name = String(describing: key)
        return Self(key, .boolean, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.bool(name)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// `true` or `false`, which a request must send.
    package static func requiredBool(_ key: StaticString, _ path: any WritableKeyPath<Root, Bool> & Sendable, _ description: String?) -> Self {
        let name = String(describing: key)
        return Self(key, .boolean, required: true, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        guard let flag = try body.bool(name) else { throw .required(name) }
                        value[keyPath: path] = flag
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional whole number within `range`.
    package static func integer(
        _ key: StaticString, _ path: any WritableKeyPath<Root, Int?> & Sendable, range: ClosedRange<Int>, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .integer(range), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.integer(name, range: range)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional object of the ``WireSchema`` type `T`, read by `T`'s own table (at most `maxBytes` bytes of JSON);
    /// a refusal of one of its fields names it as `key.field`.
    public static func nested<T: WireSchema & WireDecodable>(
        _ key: StaticString, _ path: any WritableKeyPath<Root, T?> & Sendable, maxBytes: Int, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .named(T.self), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        guard let object = try body.object(name, maxBytes: maxBytes) else { return }
                        let members = object.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
                        do throws(WireDecodingError) {
                            value[keyPath: path] = try T(reading: JSONObjectFields(members: members))
                        } catch {
                            throw WireDecodingError("\(name).\(error.reason)")
                        }
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional array of at most `maxCount` strings, each of at most `maxLength` UTF-8 bytes holding only what
    /// `characters` allows.
    public static func strings(
        _ key: StaticString, _ path: any WritableKeyPath<Root, [String]?> & Sendable, maxCount: Int, maxLength: Int,
        characters: WireCharacters = .identifier, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .array(.string(maxLength: maxLength), maxItems: maxCount), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        guard let strings = try body.rawStrings(name) else { return }
                        guard strings.count <= maxCount else { throw .tooMany(name, maxCount) }
                        for string in strings {
                            guard string.utf8.count <= maxLength else { throw .tooLong(name, bytes: maxLength) }
                            guard characters.allows(string) else { throw .characters(name, characters) }
                        }
                        value[keyPath: path] = strings
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// Optional free-form custom data: a JSON object of at most `maxBytes` bytes of JSON.
    package static func object(
        _ key: StaticString, _ path: any WritableKeyPath<Root, [String: JSONValue]?> & Sendable, maxBytes: Int = 16 * 1024,
        _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .map(.any), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.object(name, maxBytes: maxBytes)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// Custom data where null means "clear": nil when absent, `.some(nil)` when null.
    package static func nullableObject(
        _ key: StaticString, _ path: any WritableKeyPath<Root, [String: JSONValue]??> & Sendable, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .map(.any), nullable: true, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.nullableObject(name)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A string of at most `maxLength` bytes (`characters` allowed), or a JSON object (for a document sent either way).
    package static func stringOrObject(
        _ key: StaticString, _ path: any WritableKeyPath<Root, JSONValue?> & Sendable, maxLength: Int,
        characters: WireCharacters = .identifier, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .anyOf([.string(maxLength: maxLength), .map(.any)]), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        if (try? body.rawString(name)) != nil {
                            value[keyPath: path] = try body.string(name, maxLength: maxLength, characters: characters)
                                .map { .string($0) }
                        } else if let object = try body.object(name, maxBytes: maxLength) {
                            value[keyPath: path] = .object(object)
                        }
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional action code (``ActionCode``).
    package static func actionCode(_ key: StaticString, _ path: any WritableKeyPath<Root, String?> & Sendable, _ description: String?) -> Self {
        let name = String(describing: key)
        return Self(key, ActionCode.wireType, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.actionCode(name)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional array of at most `maxCount` action codes (``ActionCode``).
    package static func actionCodes(
        _ key: StaticString, _ path: any WritableKeyPath<Root, [String]?> & Sendable, maxCount: Int, _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, .array(ActionCode.wireType, maxItems: maxCount), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try body.actionCodes(name, maxCount: maxCount)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A spelling of `E` that a request must send, of at most `maxLength` bytes; one `E` does not know is refused with
    /// `refusal`, or by default with ``WireDecodingError/notOneOf(_:_:)``.
    package static func requiredValue<E: WireEnumeration>(
        _ key: StaticString, _ path: any WritableKeyPath<Root, E> & Sendable, maxLength: Int, refusal: String? = nil,
        _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, E.wireType(maxLength: maxLength), required: true, description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        value[keyPath: path] = try spelling(E.self, of: name, body.requiredString(name, maxLength: maxLength), refusal)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// An optional spelling of `E`, as ``requiredValue(_:_:maxLength:refusal:_:)`` reads it.
    package static func value<E: WireEnumeration>(
        _ key: StaticString, _ path: any WritableKeyPath<Root, E?> & Sendable, maxLength: Int, refusal: String? = nil,
        _ description: String?
    ) -> Self {
        let name = String(describing: key)
        return Self(key, E.wireType(maxLength: maxLength), description,
                    read: { (value: inout Root, body: any WireObject) throws(WireDecodingError) in
                        guard let sent = try body.string(name, maxLength: maxLength) else { return }
                        value[keyPath: path] = try spelling(E.self, of: name, sent, refusal)
                    },
                    write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    private static func spelling<E: WireEnumeration>(
        _ type: E.Type, of name: String, _ sent: String, _ refusal: String?
    ) throws(WireDecodingError) -> E {
        guard let known = E(rawValue: sent) else {
            throw refusal.map(WireDecodingError.init) ?? .notOneOf(name, E.wireSpellings ?? [])
        }
        return known
    }
}

// MARK: Response fields: written and described.

extension WireField {
    /// A value a response always writes.
    package static func field<V: WireValue>(_ key: StaticString, _ path: any KeyPath<Root, V> & Sendable, _ description: String?) -> Self {
        Self(key, V.wireType, required: true, description, read: { _, _ in },
             write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A value a response writes when it has one, leaving the field out otherwise.
    package static func optional<V: WireValue>(_ key: StaticString, _ path: any KeyPath<Root, V?> & Sendable, _ description: String?) -> Self {
        Self(key, V.wireType, description, read: { _, _ in },
             write: { value, writer in writer.member(key, value[keyPath: path]) })
    }

    /// A value a response always writes, as `null` when it has none (the fields clients expect to find).
    package static func orNull<V: WireValue>(_ key: StaticString, _ path: any KeyPath<Root, V?> & Sendable, _ description: String?) -> Self {
        Self(key, V.wireType, required: true, nullable: true, description, read: { _, _ in },
             write: { value, writer in writer.memberOrNull(key, value[keyPath: path]) })
    }
}

extension ActionCode {
    /// An action code on the wire.
    static let wireType = WireType.string(maxLength: maxLength, pattern: "^[A-Za-z0-9_.:-]{1,100}$")
}
