/// A response type that writes itself as JSON through a ``JSONWriter``, byte for byte what its `Encodable` conformance
/// gives `JSONEncoder` (the tests hold the two together), without the encoder's cost.
public protocol WireEncodable: Sendable {
    /// Writes the value (an object, usually) at the writer's position.
    func write(to writer: inout JSONWriter)
}
