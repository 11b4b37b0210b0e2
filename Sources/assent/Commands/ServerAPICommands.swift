import Foundation
import AssentWire

/// `assent admin track | action | validate`: tracked actions through the server API of a running `assentd`.
enum ServerAPICommands {
    static let track = Command.leaf(
        "track", "track an action for a user; prints its state and the token for the client SDKs",
        details: "POST /v1/users/{user}/actions/{action}. Use --scope add:authenticators for an enrolment token.",
        options: ServerConnection.options + [
            userOption,
            .required("--action", "CODE", "the action code, e.g. signIn"),
            .optional("--idempotency-key", "K", "use this key instead of a new one"),
            .optional("--scope", "S", "scopes for the token, e.g. add:authenticators"),
            .optional("--ip", "IP", "the initiating request's IP address"),
            .optional("--user-agent", "UA", "the initiating request's user agent"),
            .optional("--device-id", "ID", "the initiating device"),
            .optional("--location", "TEXT", "where the initiating request came from, e.g. \"Wellington, New Zealand\" "
                + "(a QR claim shows it)"),
            .optional("--custom", "JSON", "a JSON object kept with the action"),
        ]
    ) { invocation in
        let options = invocation.options
        let user = try userID(options)
        let action = try SettingsChange.actionCode(try options.required("--action"), option: "--action")
        var body: [String: JSONValue] = [:]
        for (option, field) in [
            ("--idempotency-key", "idempotencyKey"), ("--scope", "scope"), ("--ip", "ipAddress"),
            ("--user-agent", "userAgent"), ("--device-id", "deviceId"), ("--location", "location"),
        ] {
            if let value = try options.nonEmpty(option) { body[field] = .string(value) }
        }
        if let custom = options.string("--custom") {
            body["custom"] = .object(try ServerConnection.jsonObject(custom, option: "--custom"))
        }
        try await ServerConnection.call(
            invocation, .track, [user, action], body: body, decoding: TrackResponse.self
        ) { response in
            Fields.render([
                ("state", response.state.rawValue),
                ("idempotency key", response.idempotencyKey),
                ("enrolled", Fields.yesNo(response.isEnrolled)
                    + (Fields.list(response.enrolledVerificationMethods.map(\.rawValue)).map { " (\($0))" } ?? "")),
                ("allowed methods", Fields.list(response.allowedVerificationMethods.map(\.rawValue))),
                ("token", response.token),
                ("url", response.url),
            ])
        }
    }

    static let action = Command.group(
        "action", "read or change a tracked action (server API)", [getAction, updateAction])

    private static let actionOptions: [Option] = ServerConnection.options + [
        userOption,
        .required("--action", "CODE", "the action code"),
        .required("--idempotency-key", "K", "the key track returned"),
    ]

    static let getAction = Command.leaf(
        "get", "show a tracked action", details: "GET /v1/users/{user}/actions/{action}/{idempotencyKey}.",
        options: actionOptions
    ) { invocation in
        try await ServerConnection.call(
            invocation, .getAction, try actionPath(invocation.options), decoding: ActionResponse.self, human: describe)
    }

    static let updateAction = Command.leaf(
        "update", "set a tracked action's state",
        details: "PATCH /v1/users/{user}/actions/{action}/{idempotencyKey}. States: \(ActionStateName.allowed).",
        options: actionOptions + [.required("--state", "STATE", "the new state")]
    ) { invocation in
        let state = try ActionStateName.parse(try invocation.options.required("--state"), option: "--state")
        try await ServerConnection.call(
            invocation, .updateAction, try actionPath(invocation.options), body: ["state": .string(state.rawValue)],
            decoding: ActionResponse.self, human: describe)
    }

    static let validate = Command.leaf(
        "validate", "check a token after the user completed the challenge (a success validates once)",
        details: """
            POST /v1/validate, with the access token the client got when the challenge completed: the accessToken of \
            POST /v1/client/verify/push or /v1/client/verify/qr-code. The \
            track token itself is never valid. Exits 0 whenever the server answers; read 'valid' (or isValid with \
            --json).
            """,
        options: ServerConnection.options + [
            .required("--token", "T", "the access token from verify (not the track token)"),
            .optional("--user", "ID", "the user the token must belong to"),
            .optional("--action", "CODE", "the action code the token must be for"),
        ]
    ) { invocation in
        let options = invocation.options
        var body: [String: JSONValue] = ["token": .string(try options.required("--token"))]
        if let user = try options.nonEmpty("--user") { body["userId"] = .string(user) }
        if let action = try options.nonEmpty("--action") { body["action"] = .string(action) }
        try await ServerConnection.call(
            invocation, .validate, [], body: body, decoding: ValidateResponse.self
        ) { response in
            Fields.render([
                ("valid", Fields.yesNo(response.isValid)),
                ("state", response.state?.rawValue),
                ("state updated", response.stateUpdatedAt),
                ("user", response.userId),
                ("action", response.actionCode ?? response.action),
                ("idempotency key", response.idempotencyKey),
                ("method", response.verificationMethod?.rawValue),
                ("error", response.error),
            ])
        }
    }

    // MARK: Helpers

    /// The `--user` option, read with ``userID(_:)``.
    static let userOption = Option.required("--user", "ID", "the user")

    /// A command that takes `--user` (and the connection options) and calls `endpoint` for that user, printing what
    /// `human` makes of the answer and the user's id.
    static func userCommand<T: Decodable & Sendable>(
        _ name: String, _ summary: String, details: String, _ endpoint: Endpoint, decoding: T.Type,
        human: @escaping @Sendable (T, String) -> String
    ) -> Command {
        Command.leaf(name, summary, details: details, options: ServerConnection.options + [userOption]) { invocation in
            let user = try userID(invocation.options)
            try await ServerConnection.call(invocation, endpoint, [user], decoding: T.self) { human($0, user) }
        }
    }

    /// `--user`, checked the way the server checks a user id in a path.
    static func userID(_ options: ParsedOptions) throws -> String {
        let user = try options.required("--user")
        guard !user.isEmpty, user.utf8.count <= 255,
              !user.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
        else { throw CLIError.usage("--user must be 1 to 255 bytes without control characters") }
        return user
    }

    private static func actionPath(_ options: ParsedOptions) throws -> [String] {
        let action = try SettingsChange.actionCode(try options.required("--action"), option: "--action")
        guard let key = try options.nonEmpty("--idempotency-key") else {
            throw CLIError.usage("--idempotency-key is required")
        }
        return [try userID(options), action, key]
    }

    private static func describe(_ action: ActionResponse) -> String {
        Fields.render([
            ("state", action.state.rawValue),
            ("user", action.userId),
            ("action", action.actionCode),
            ("idempotency key", action.idempotencyKey),
            ("created", action.createdAt),
            ("state updated", action.stateUpdatedAt),
            ("method", action.verificationMethod?.rawValue),
        ])
    }
}
