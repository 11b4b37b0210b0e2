/// Writing the Prometheus text exposition format 0.0.4 (beside the log: the other text Assent writes for its
/// operators; the HTTP server's and the domain's metrics both use it): `HELP` and `TYPE` lines, label values quoted and escaped,
/// numbers as Prometheus reads them.
package enum PrometheusText {
    /// The `# HELP` and `# TYPE` lines of a metric family.
    package static func header(_ name: String, _ type: String, _ help: String) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// A counter family: its header, then a sample per label set, sorted by the label values in order.
    package static func counter(_ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: Int)]) -> String {
        var text = header(name, "counter", help)
        let sorted = samples.sorted { $0.labels.map(\.1).lexicographicallyPrecedes($1.labels.map(\.1)) }
        for sample in sorted { text += name + labels(sample.labels) + " \(sample.value)\n" }
        return text
    }

    /// A gauge family of one unlabelled sample: its header, then `name value`.
    package static func gauge(_ name: String, _ help: String, _ value: String) -> String {
        header(name, "gauge", help) + "\(name) \(value)\n"
    }

    /// `{a="x",b="y"}` for the pairs given, in order (empty for none).
    package static func labels(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "{" + pairs.map { "\($0.0)=\(quoted($0.1))" }.joined(separator: ",") + "}"
    }

    /// A quoted label value with `\`, `"` and newline escaped.
    package static func quoted(_ value: String) -> String {
        var output = "\""
        for character in value.unicodeScalars {
            switch character {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            default: output.unicodeScalars.append(character)
            }
        }
        return output + "\""
    }

    /// A sample value: integers without a fraction, other numbers as Swift prints them.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return JSONText.number(value)
    }
}
