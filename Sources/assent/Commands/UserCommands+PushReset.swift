import AssentServerCore
import AssentWire

extension UserCommands {
    /// `assent admin user push-reset`: ends a user's push throttle and fraud lock, on the database.
    static let pushReset = Command.leaf(
        "push-reset", "let a user get push challenges again: end their push throttle and fraud lock (on the database)",
        details: """
            After 3 consecutive denied, expired or wrongly coded pushes, new pushes for a user are refused
            (push_throttled), and after a device answered "this wasn't me" they are locked (push_locked). This ends
            both at once, for every assentd sharing the database. The server API does the same:
            POST /v1/users/{user}/push/reset.
            """,
        options: [
            TenantDatabase.option, TenantDatabase.tenantOption, ServerAPICommands.userOption,
        ]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let user = try ServerAPICommands.userID(invocation.options)
        try await TenantDatabase.withStore(invocation) { store, _ in
            _ = try await TenantDatabase.tenant(tenantID, in: store)
            try await PushGuards(store: store, clock: .system, webhooks: nil).reset(tenantID: tenantID, userID: user)
        }
        try invocation.output.result(PushResetJSON(tenantId: tenantID, userId: user, reset: true)) {
            "User \(user) may get push challenges again."
        }
    }

    /// The outcome of `push-reset`, for `--json` (the server API's answer, with the tenant).
    struct PushResetJSON: Encodable {
        var tenantId: String
        var userId: String
        var reset: Bool
    }
}
