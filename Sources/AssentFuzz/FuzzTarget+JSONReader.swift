import AssentWire

extension FuzzTarget {
    /// `AssentWire`'s own JSON reader, which reads every request body: any bytes must be read or refused without a
    /// trap, and what it reads must survive a round trip through ``JSONWriter`` unchanged (the writer's output is
    /// JSON the reader takes back as the same value). The object reader and the value reader must agree.
    static let jsonReader = FuzzTarget(name: "json-reader") { bytes in
        let value: JSONValue
        do {
            value = try JSONReader.value(bytes)
        } catch {
            if let members = try? JSONReader.object(bytes) {
                preconditionFailure("the object reader took what the value reader refused (\(members.count) members)")
            }
            return
        }
        var writer = JSONWriter()
        writer.value(value)
        let again = try? JSONReader.value(writer.bytes)
        precondition(again == value, "a value read, written and read again changed")
        if case .object(let object) = value {
            guard let members = try? JSONReader.object(bytes) else {
                preconditionFailure("the object reader refused an object the value reader took")
            }
            precondition(members.count == object.count, "the object reader lost or added members")
            for (key, member) in members { precondition(object[key] == member, "the two readers disagree on \(key)") }
            // The fields as request types read them.
            let fields = JSONObjectFields(members: members)
            for (key, _) in members {
                _ = fields.isNull(key)
                _ = try? fields.rawString(key)
                _ = try? fields.integer(key, range: Int.min...Int.max)
                _ = try? fields.object(key, maxBytes: 4096)
            }
        } else {
            precondition((try? JSONReader.object(bytes)) == nil, "the object reader took a non-object")
        }
    }
}
