/// A value a field may hold whose ``WireType`` follows from its Swift type: strings, booleans, integers, custom data,
/// arrays and maps of these, named types.
public protocol WireValue: WireEncodable {
    /// What the value is on the wire.
    static var wireType: WireType { get }
}

extension String: WireValue {
    public static var wireType: WireType { .string() }
}

extension Bool: WireValue {
    public static var wireType: WireType { .boolean }
}

extension Int: WireValue {
    public static var wireType: WireType { .integer() }
}

extension Int64: WireValue {
    public static var wireType: WireType { .integer() }
}

extension JSONValue: WireValue {
    public static var wireType: WireType { .any }
}

extension Array: WireValue where Element: WireValue {
    public static var wireType: WireType { .array(Element.wireType) }
}

extension Dictionary: WireValue where Key == String, Value: WireValue {
    public static var wireType: WireType { .map(Value.wireType) }
}
