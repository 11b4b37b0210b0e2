/// One `--name [VALUE]` option a command accepts.
struct Option: Sendable {
    /// The flag, with its dashes: `--user`.
    let name: String
    /// What the value is called in help (`ID`), or nil for a flag that takes no value.
    let valueName: String?
    /// One line of help.
    let help: String
    /// Whether the command cannot run without it (after the environment variable is consulted).
    var isRequired = false
    /// Whether it may be given more than once.
    var isRepeatable = false
    /// An environment variable that supplies the value when the flag is absent.
    var environment: String?
    /// Whether a bare word (not starting with `--`) on the command line is taken as this option's value.
    var takesBareWord = false
    /// Whether help leaves it out: an old spelling kept so scripts written for it still run.
    var isHidden = false

    /// A required option with a value.
    static func required(_ name: String, _ valueName: String, _ help: String, environment: String? = nil) -> Option {
        Option(name: name, valueName: valueName, help: help, isRequired: true, environment: environment)
    }

    /// An optional option with a value.
    static func optional(_ name: String, _ valueName: String, _ help: String, environment: String? = nil) -> Option {
        Option(name: name, valueName: valueName, help: help, environment: environment)
    }

    /// An optional option that may be repeated.
    static func repeatable(_ name: String, _ valueName: String, _ help: String) -> Option {
        Option(name: name, valueName: valueName, help: help, isRepeatable: true)
    }

    /// An optional option whose value may also be given as the command's one bare word.
    static func bareWord(_ name: String, _ valueName: String, _ help: String) -> Option {
        Option(name: name, valueName: valueName, help: help, takesBareWord: true)
    }

    /// An old spelling of an option with a value, accepted but not shown in help.
    static func hiddenAlias(_ name: String, _ valueName: String) -> Option {
        Option(name: name, valueName: valueName, help: "", isHidden: true)
    }

    /// A flag without a value.
    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, valueName: nil, help: help)
    }

    /// `--json`, which every command takes.
    static let json = Option.flag("--json", "print one JSON document on stdout and nothing else")
}
