import AssentWire
import Foundation

/// `assent admin activation ...`: a tenant's PowerAuth activations through the server API of a running `assentd`.
enum ActivationCommands {
    /// The `activation` group.
    static let group = Command.group(
        "activation", "read, list, commit, block, unblock or remove PowerAuth activations (server API)",
        [get, list, change("commit", .commitActivation, "commit a PENDING_COMMIT activation (it becomes ACTIVE)"),
         change("block", .blockActivation, "block an ACTIVE activation"),
         change("unblock", .unblockActivation, "unblock a BLOCKED activation (failed attempts reset to 0)"),
         change("remove", .removeActivation, "remove an activation for good")])

    private static let idOption = Option.required("--activation", "ID", "the activation id")

    static let get = command("get", .getActivation, "show an activation", details: "GET /v1/activations/{id}.")

    static let list = ServerAPICommands.userCommand(
        "list", "list a user's activations", details: "GET /v1/users/{user}/activations.", .getActivations,
        decoding: ActivationListResponse.self
    ) { answer, user in
        Table.render(
            answer.activations, empty: "User \(user) has no activations.",
            header: ["ACTIVATION ID", "STATUS", "FAILED", "NAME", "CREATED"]
        ) {
            [$0.activationId, $0.activationStatus, "\($0.failedAttempts)/\($0.maxFailedAttempts)", $0.activationName ?? "", $0.createdAt]
        }
    }

    private static func change(_ name: String, _ endpoint: Endpoint, _ summary: String) -> Command {
        command(
            name, endpoint, summary,
            details: endpoint.method == "DELETE" ? "DELETE /v1/activations/{id}." : "POST /v1/activations/{id}/\(name).")
    }

    /// A command that calls `endpoint` for the activation `--activation` names and shows the activation it answers.
    private static func command(_ name: String, _ endpoint: Endpoint, _ summary: String, details: String) -> Command {
        Command.leaf(name, summary, details: details, options: ServerConnection.options + [idOption]) { invocation in
            let id = try invocation.options.required("--activation")
            try await ServerConnection.call(invocation, endpoint, [id], decoding: ActivationResponse.self, human: describe)
        }
    }

    private static func describe(_ a: ActivationResponse) -> String {
        """
        activation:  \(a.activationId)
        user:        \(a.userId)
        status:      \(a.activationStatus)\(a.blockedReason.map { " (\($0))" } ?? "")
        failed:      \(a.failedAttempts) of \(a.maxFailedAttempts)
        fingerprint: \(a.activationFingerprint)
        name:        \(a.activationName ?? "-")
        created:     \(a.createdAt)
        last used:   \(a.lastUsedAt ?? "never")
        """
    }
}
