/// Usage text for a group or a leaf, made from the command tree so it cannot drift from what is parsed.
enum HelpText {
    /// The help for `command`, reached through `path` (e.g. `["assent", "admin"]`).
    static func render(_ command: Command, path: [String], version: String? = nil) -> String {
        let name = path.joined(separator: " ")
        var text = ""
        switch command.kind {
        case .group(let children):
            if let version { text += "\(name) \(version) — \(command.summary)\n\n" }
            text += "usage: \(name) <command> [options]\n"
            if version == nil { text += "\n\(command.summary)\n" }
            if let details = command.details { text += "\n\(details)\n" }
            text += "\ncommands:\n"
            let width = children.map(\.name.count).max() ?? 0
            for child in children {
                text += "  \(pad(child.name, width))  \(child.summary)\n"
            }
            text += "\n'\(name) <command> --help' describes a command; every command takes --json.\n"
        case .leaf(let all, _):
            let options = all.filter { !$0.isHidden }
            text += "usage: \(name) " + options.map(usage).joined(separator: " ") + "\n\n"
            text += "\(command.summary)\n"
            if let details = command.details { text += "\n\(details)\n" }
            text += "\noptions:\n"
            let labels = options.map { option in option.name + (option.valueName.map { " \($0)" } ?? "") }
            let width = min(max(labels.map(\.count).max() ?? 0, "-h, --help".count), maxLabelWidth)
            for (option, label) in zip(options, labels) {
                var line = option.help
                if option.isRepeatable { line += " (repeatable)" }
                if let variable = option.environment { line += " [env \(variable)]" }
                if label.count > width {
                    text += "  \(label)\n  \(pad("", width))  \(line)\n"
                } else {
                    text += "  \(pad(label, width))  \(line)\n"
                }
            }
            text += "  \(pad("-h, --help", width))  show this help\n"
        }
        return text
    }

    /// Longer option labels get their help on the next line.
    private static let maxLabelWidth = 26

    private static func usage(_ option: Option) -> String {
        let text = option.name + (option.valueName.map { " \($0)" } ?? "")
        let shown = option.isRepeatable ? text + " ..." : text
        return option.isRequired ? shown : "[\(shown)]"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
