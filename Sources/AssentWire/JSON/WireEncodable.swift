/// A value that writes itself as JSON through a ``JSONWriter``, byte for byte what its `Encodable` conformance gives
/// `JSONEncoder` (the tests hold the two together), without the encoder's cost: the response types, and the values
/// their fields hold (strings, booleans, 64-bit integers, custom data, arrays of any of these), so that one
/// ``JSONWriter/member(_:_:)`` writes every field.
package protocol WireEncodable: Sendable {
    /// Writes the value (an object, usually) at the writer's position.
    func write(to writer: inout JSONWriter)
}

/// A string-backed enumeration or wrapper (``ActionState``, ``VerificationMethod``) is its raw value on the wire, as
/// its synthesized `Encodable` has it.
extension WireEncodable where Self: RawRepresentable, RawValue == String {
    package func write(to writer: inout JSONWriter) { writer.value(rawValue) }
}

extension String: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Bool: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Int64: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Int: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Double: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension JSONValue: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.value(self) }
}

/// Custom data (`custom`, `user.custom`) and other maps: an object with its keys sorted.
extension Dictionary: WireEncodable where Key == String, Value: WireEncodable {
    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            for name in keys.sorted() {
                writer.key(name)
                writer.value(self[name]!)
            }
        }
    }
}

/// An optional value: the value, or `null` (a request's `.some(nil)`, "clear this field", as synthesized `Encodable`
/// writes it).
extension Optional: WireEncodable where Wrapped: WireEncodable {
    package func write(to writer: inout JSONWriter) {
        if let value = self { value.write(to: &writer) } else { writer.null() }
    }
}

extension Array: WireEncodable where Element: WireEncodable {
    package func write(to writer: inout JSONWriter) { writer.array(self) { $0.value($1) } }
}
