/// A value of a structured log field.
package enum LogValue: Sendable, Equatable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByStringInterpolation,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// A string, written as a JSON string.
    case string(String)
    /// An integer, written as a JSON number.
    case int(Int)
    /// A double, written as a JSON number (`null` when not finite).
    case double(Double)
    /// A boolean, written as `true` or `false`.
    case bool(Bool)

    /// Creates a `.string` value.
    package init(stringLiteral value: String) { self = .string(value) }
    /// Creates an `.int` value.
    package init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a `.double` value.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a `.bool` value.
    package init(booleanLiteral value: Bool) { self = .bool(value) }

    /// The value as JSON text.
    package var description: String {
        var output = ""
        appendJSON(to: &output)
        return output
    }

    func appendJSON(to output: inout String) {
        switch self {
        case .string(let value): JSONText.appendString(value, to: &output)
        case .int(let value): output += String(value)
        case .double(let value): output += JSONText.number(value)
        case .bool(let value): output += value ? "true" : "false"
        }
    }
}
