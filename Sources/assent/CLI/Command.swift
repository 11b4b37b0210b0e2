/// One node of the command tree: a group of subcommands, or a leaf that runs.
struct Command: Sendable {
    /// What a leaf does with its parsed options.
    typealias Run = @Sendable (Invocation) async throws -> Void

    /// A group or a leaf.
    enum Kind: Sendable {
        /// Subcommands, chosen by the next word.
        case group([Command])
        /// A command with its options (`--json` and `--help` are added for every leaf).
        case leaf(options: [Option], run: Run)
    }

    /// The word that selects it.
    let name: String
    /// One line for listings.
    let summary: String
    /// More help, shown under the usage line.
    var details: String?
    /// Group or leaf.
    let kind: Kind

    /// A group.
    static func group(_ name: String, _ summary: String, details: String? = nil, _ children: [Command]) -> Command {
        Command(name: name, summary: summary, details: details, kind: .group(children))
    }

    /// A leaf.
    static func leaf(
        _ name: String, _ summary: String, details: String? = nil, options: [Option], run: @escaping Run
    ) -> Command {
        Command(name: name, summary: summary, details: details, kind: .leaf(options: options + [.json], run: run))
    }

    /// The names of a group's commands (none for a leaf).
    var childNames: [String] {
        guard case .group(let children) = kind else { return [] }
        return children.map(\.name)
    }

    /// The child named `name`, for a group.
    func child(_ name: String) -> Command? {
        guard case .group(let children) = kind else { return nil }
        return children.first { $0.name == name }
    }
}
