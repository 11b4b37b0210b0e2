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

    /// A comma-separated list, or nil when empty.
    static func list(_ values: [String]) -> String? { values.isEmpty ? nil : values.joined(separator: ", ") }
}
