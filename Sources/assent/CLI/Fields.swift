import AssentWire
import Foundation

/// `label: value` lines for human output, values aligned; nil values are left out.
enum Fields {
    /// The lines.
    static func render(_ fields: [(String, String?)]) -> String {
        let present = fields.compactMap { label, value in value.map { (label, $0) } }
        let width = (present.map(\.0.count).max() ?? 0) + 1
        return present.map { label, value in
            (label + ":").padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
        }.joined(separator: "\n")
    }

    /// `yes` or `no`.
    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    /// A JSON object on one line, keys sorted; nil when empty.
    static func json(_ object: [String: JSONValue]) -> String? {
        guard !object.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{...}"
    }

    /// A comma-separated list, or nil when empty.
    static func list(_ values: [String]) -> String? { values.isEmpty ? nil : values.joined(separator: ", ") }
}
