/// The options of one command line, parsed against the command's ``Option`` list, with environment fallbacks.
struct ParsedOptions: Sendable {
    private let values: [String: [String]]
    private let options: [String: Option]
    private let environment: [String: String]

    /// Parses `arguments` (the words after the command's name). Accepts `--name VALUE` and `--name=VALUE`, and one
    /// bare word when an option takes it; rejects unknown options, other positional words, missing values and repeated
    /// non-repeatable options.
    init(parsing arguments: [String], options list: [Option], environment: [String: String]) throws {
        var options: [String: Option] = [:]
        for option in list { options[option.name] = option }
        var values: [String: [String]] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if let bare = list.first(where: \.takesBareWord), values[bare.name] == nil {
                    values[bare.name] = [argument]
                    continue
                }
                throw CLIError.usage("unexpected argument '\(argument)'")
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options[name] else {
                let shown = list.filter { !$0.isHidden }.map(\.name)
                throw CLIError.usage("unknown option \(name)\(Suggestion.hint(for: name, among: shown, quoted: false))")
            }
            let value: String
            if option.valueName == nil {
                guard inlineValue == nil else { throw CLIError.usage("\(name) takes no value") }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else {
                // The next word is the value, unless it is one of this command's own options: then it was forgotten.
                guard index < arguments.count, options[Self.optionName(arguments[index])] == nil else {
                    throw CLIError.usage("\(name) needs a value (\(option.valueName ?? "VALUE"))")
                }
                value = arguments[index]
                index += 1
            }
            if values[name] != nil, !option.isRepeatable {
                throw CLIError.usage("\(name) may be given only once")
            }
            values[name, default: []].append(value)
        }
        self.values = values
        self.options = options
        self.environment = environment
        for option in list where option.isRequired && string(option.name) == nil {
            let fromEnvironment = option.environment.map { " (or set \($0))" } ?? ""
            throw CLIError.usage("\(option.name) \(option.valueName ?? "") is required\(fromEnvironment)")
        }
    }

    private static func optionName(_ argument: String) -> String {
        argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
    }

    /// Whether the option was given on the command line (not through the environment).
    func isGiven(_ name: String) -> Bool { values[name] != nil }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The option's value from the command line, else from its environment variable (ignored when empty).
    func string(_ name: String) -> String? {
        if let value = values[name]?.last { return value }
        if let variable = options[name]?.environment, let value = environment[variable], !value.isEmpty { return value }
        return nil
    }

    /// A value that must be present; parsing already checked options marked required.
    func required(_ name: String) throws -> String {
        guard let value = string(name) else { throw CLIError.usage("\(name) is required") }
        return value
    }

    /// A value that, when present, must not be empty.
    func nonEmpty(_ name: String) throws -> String? {
        guard let value = string(name) else { return nil }
        guard !value.isEmpty else { throw CLIError.usage("\(name) must not be empty") }
        return value
    }

    /// Every value of a repeatable option, in order.
    func strings(_ name: String) -> [String] { values[name] ?? [] }
}
