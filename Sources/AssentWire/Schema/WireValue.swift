/// A value a field may hold whose ``WireType`` follows from its Swift type: strings, booleans, integers, numbers,
/// custom data, arrays and maps of these, named types.
package protocol WireValue: WireEncodable {
    /// What the value is on the wire.
    static var wireType: WireType { get }
}

extension String: WireValue {
    package static var wireType: WireType { .string() }
}

extension Bool: WireValue {
    package static var wireType: WireType { .boolean }
}

extension Int: WireValue {
    package static var wireType: WireType { .integer() }
}

extension Double: WireValue {
    package static var wireType: WireType { .number }
}

extension Int64: WireValue {
    package static var wireType: WireType { .integer() }
}

extension JSONValue: WireValue {
    package static var wireType: WireType { .any }
}

extension Array: WireValue where Element: WireValue {
    package static var wireType: WireType { .array(Element.wireType) }
}

extension Dictionary: WireValue where Key == String, Value: WireValue {
    package static var wireType: WireType { .map(Value.wireType) }
}
