/// The values of a route's `{name}` segments for one request, percent-decoded.
package struct RouteParameters: Sendable, Equatable {
    private var values: [(name: String, value: String)]

    /// Creates parameters from `(name, decoded value)` pairs.
    package init(_ values: [(String, String)] = []) {
        self.values = values.map { (name: $0.0, value: $0.1) }
    }

    /// The decoded value of the `{name}` segment, or `nil` if the route has no such parameter.
    package subscript(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The parameter names in pattern order.
    package var names: [String] { values.map(\.name) }

    /// Equal when both hold the same names and values in the same order.
    package static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool {
        lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
