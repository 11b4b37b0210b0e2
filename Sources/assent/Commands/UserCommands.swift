import Foundation
import AssentWire

/// `assent admin user ...` and `assent admin authenticators ...` through the server API of a running `assentd`.
enum UserCommands {
    static let user = Command.group(
        "user", "read, update, export or delete a user (server API); reset their push throttle (database)",
        [getUser, updateUser, exportUser, deleteUser, pushReset])

    static let getUser = Command.leaf(
        "get", "show a user",
        details: """
            GET /v1/users/{user}. A user the tenant does not know is "no such user" (exit 1, errorCode user_not_found);             with --json the server's answer is printed as received (an unknown user reads as not enrolled there).
            """,
        options: ServerConnection.options + [ServerAPICommands.userOption]
    ) { invocation in
        let user = try ServerAPICommands.userID(invocation.options)
        try await ServerConnection.call(invocation, .getUser, [user], decoding: UserResponse.self, refuse: { response in
            guard response.headers[UserResponse.knownHeader.lowercased()] == "false" else { return }
            throw CLIError(
                .failure, "no such user '\(user)' in this tenant (never tracked, updated or enrolled)",
                errorCode: "user_not_found", jsonBody: response.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }) { describe($0) }
    }

    static let updateUser = Command.leaf(
        "update", "change a user's details; an empty value clears a field",
        details: "PATCH /v1/users/{user}; only the fields given are sent, an empty value is sent as null.",
        options: ServerConnection.options + [
            ServerAPICommands.userOption,
            .optional("--email", "E", "e-mail address"),
            .optional("--phone", "P", "phone number"),
            .optional("--display-name", "N", "display name"),
            .optional("--username", "U", "user name"),
            .optional("--locale", "L", "locale, e.g. en-NZ"),
            .optional("--custom", "JSON", "a JSON object of free-form data"),
        ]
    ) { invocation in
        let options = invocation.options
        let user = try ServerAPICommands.userID(options)
        var body: [String: JSONValue] = [:]
        for (option, field) in [
            ("--email", "email"), ("--phone", "phoneNumber"), ("--display-name", "displayName"),
            ("--username", "username"), ("--locale", "locale"),
        ] {
            if let value = options.string(option) { body[field] = value.isEmpty ? .null : .string(value) }
        }
        if let custom = options.string("--custom") {
            body["custom"] = custom.isEmpty ? .null : .object(try ServerConnection.jsonObject(custom, option: "--custom"))
        }
        guard !body.isEmpty else {
            throw CLIError.usage("nothing to update: give at least one of --email, --phone, --display-name, "
                + "--username, --locale, --custom")
        }
        try await ServerConnection.call(
            invocation, .updateUser, [user], body: body, decoding: UserResponse.self, human: describe)
    }

    static let exportUser = ServerAPICommands.userCommand(
        "export", "everything Assent holds about a user, as JSON (a data-subject request)",
        details: """
            GET /v1/users/{user}/export: the user record, authenticators with their attestation verdicts, activations,
            actions, stored challenges, sign-in history and the audit entries naming the user; recorded as
            user.exported. See
            docs/privacy.md.
            """, .exportUser, decoding: UserExportResponse.self
    ) { export, _ in
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(export)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static let deleteUser = ServerAPICommands.userCommand(
        "delete", "delete a user and everything stored about them but the audit entries naming them",
        details: "DELETE /v1/users/{user}: authenticators, actions, activations, challenges and sign-in history go at once.", .deleteUser,
        decoding: Deleted.self
    ) { answer, user in
        answer.deleted == false ? "User \(user) did not exist; nothing was deleted." : "Deleted user \(user)."
    }

    static let authenticators = Command.group(
        "authenticators", "list, enrol or delete a user's authenticators (server API)",
        [listAuthenticators, enrollAuthenticator, deleteAuthenticator])

    static let listAuthenticators = ServerAPICommands.userCommand(
        "list", "list a user's authenticators", details: "GET /v1/users/{user}/authenticators.", .getAuthenticators,
        decoding: [UserAuthenticatorResponse].self
    ) { list, user in
        Table.render(
            list, empty: "User \(user) has no authenticators.", header: ["AUTHENTICATOR ID", "METHOD", "CREATED", "DETAILS"]
        ) { authenticator in
            [authenticator.userAuthenticatorId, authenticator.verificationMethod.rawValue, authenticator.createdAt,
             details(authenticator)]
        }
    }

    static let enrollAuthenticator = Command.leaf(
        "enroll", "enrol an e-mail address or phone number your backend has verified",
        details: "POST /v1/users/{user}/authenticators. EMAIL_OTP needs --email, SMS needs --phone.",
        options: ServerConnection.options + [
            ServerAPICommands.userOption,
            .required("--method", "EMAIL_OTP|SMS", "what to enrol"),
            .optional("--email", "E", "the verified e-mail address (EMAIL_OTP)"),
            .optional("--phone", "P", "the verified phone number (SMS)"),
            .flag("--default", "make it the user's default authenticator"),
        ]
    ) { invocation in
        let options = invocation.options
        let user = try ServerAPICommands.userID(options)
        let method = try options.required("--method").uppercased().replacingOccurrences(of: "-", with: "_")
        let (needed, other, field) = switch method {
        case VerificationMethod.emailOTP.rawValue: ("--email", "--phone", "email")
        case VerificationMethod.sms.rawValue: ("--phone", "--email", "phoneNumber")
        default: throw CLIError.usage("--method must be EMAIL_OTP or SMS, got '\(options.string("--method") ?? "")'")
        }
        guard let contact = try options.nonEmpty(needed) else { throw CLIError.usage("--method \(method) needs \(needed)") }
        guard !options.isGiven(other) else { throw CLIError.usage("\(other) does not go with --method \(method)") }
        var body: [String: JSONValue] = ["verificationMethod": .string(method), field: .string(contact)]
        if options.flag("--default") { body["isDefault"] = .bool(true) }
        try await ServerConnection.call(
            invocation, .enrollAuthenticator, [user], body: body,
            decoding: EnrollAuthenticatorResponse.self
        ) { response in
            let authenticator = response.authenticator
            return "Enrolled \(authenticator.verificationMethod.rawValue) for user \(authenticator.userId).\n"
                + Fields.render([
                    ("authenticator ID", authenticator.userAuthenticatorId),
                    ("details", details(authenticator)),
                ])
        }
    }

    static let deleteAuthenticator = Command.leaf(
        "delete", "delete one of a user's authenticators",
        details: "DELETE /v1/users/{user}/authenticators/{authenticator}.",
        options: ServerConnection.options + [
            ServerAPICommands.userOption,
            .optional("--authenticator", "ID", "the authenticator (userAuthenticatorId; required)"),
            .hiddenAlias("--id", "ID"),
        ]
    ) { invocation in
        let user = try ServerAPICommands.userID(invocation.options)
        guard let id = try invocation.options.nonEmpty("--authenticator") ?? invocation.options.nonEmpty("--id") else {
            throw CLIError.usage("--authenticator is required")
        }
        try await ServerConnection.call(
            invocation, .deleteAuthenticator, [user, id], decoding: Deleted.self
        ) { _ in "Deleted authenticator \(id) of user \(user)." }
    }

    // MARK: Helpers

    /// The answer to a DELETE.
    private struct Deleted: Decodable {
        var deleted: Bool?
    }

    private static func describe(_ user: UserResponse) -> String {
        func verified(_ value: String?, _ isVerified: Bool) -> String? {
            value.map { $0 + (isVerified ? " (verified)" : "") }
        }
        return Fields.render([
            ("user", user.userId),
            ("enrolled", Fields.yesNo(user.isEnrolled)
                + (Fields.list(user.enrolledVerificationMethods.map(\.rawValue)).map { " (\($0))" } ?? "")),
            ("email", verified(user.email, user.emailVerified)),
            ("phone", verified(user.phoneNumber, user.phoneNumberVerified)),
            ("username", user.username),
            ("display name", user.displayName),
            ("locale", user.locale),
            ("custom", user.custom.flatMap(Fields.json)),
        ])
    }

    private static func details(_ authenticator: UserAuthenticatorResponse) -> String {
        var parts: [String] = []
        if let email = authenticator.email { parts.append(email) }
        if let phone = authenticator.phoneNumber { parts.append(phone) }
        if let name = authenticator.deviceName { parts.append(name) }
        if let platform = authenticator.devicePlatform { parts.append(platform) }
        if authenticator.isDefault { parts.append("default") }
        if let expiresAt = authenticator.expiresAt { parts.append("expires \(expiresAt)") }
        if let errorCode = authenticator.errorCode { parts.append("push error \(errorCode)") }
        return parts.joined(separator: ", ")
    }
}
