/// A wire type with a name and a schema of its own in the OpenAPI document: every ``WireSchema`` type, and the value
/// types several fields share (``ActionState``, ``VerificationMethod``).
package protocol WireNamed: Sendable {
    /// The component's name, e.g. `TrackRequest`.
    static var wireName: String { get }
    /// The component's JSON Schema.
    static var wireComponent: JSONValue { get }
    /// The named types the component refers to, each to be listed as a component too.
    static var wireReferences: [any WireNamed.Type] { get }
    /// Whether the schema is written in place wherever a field holds the type, instead of as a component of its own
    /// (a part of one answer only, such as the APNs part of ``PushSettingsResponse``).
    static var wireInline: Bool { get }
}

extension WireNamed {
    package static var wireName: String { String(describing: Self.self) }
    package static var wireReferences: [any WireNamed.Type] { [] }
    package static var wireInline: Bool { false }
}
