/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Names keep the spelling they were added with; lookups compare names
/// ignoring ASCII case. A name may occur more than once.
package struct HTTPHeaders: Sendable, Sequence, Equatable {
    /// One header field.
    package typealias Element = (name: String, value: String)

    private var fields: [(name: String, value: String)]

    /// Creates an empty header list.
    package init() {
        fields = []
    }

    /// Creates a header list from `(name, value)` pairs, in order.
    package init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field called `name` (ASCII case-insensitive), or `nil`.
    package subscript(name: String) -> String? {
        for field in fields where Self.namesEqual(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Every value of the field called `name`, in order.
    package func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// Appends a field; existing fields with the same name are kept.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`.
    package mutating func replace(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field called `name`.
    package mutating func remove(_ name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// Whether a field called `name` is present.
    package func contains(_ name: String) -> Bool {
        fields.contains { Self.namesEqual($0.name, name) }
    }

    /// The number of fields.
    package var count: Int { fields.count }

    /// Iterates over the fields in order.
    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Equal when both hold the same fields, names compared ignoring case, in the same order.
    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesEqual($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison of two field names.
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            guard lowercased(p) == lowercased(q) else { return false }
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
    }
}
