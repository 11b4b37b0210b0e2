import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The console's users section: the users page (search by id prefix), a user's page (authenticators, PowerAuth
/// activations, recent challenges) with the forms that change them, and the JSON the user page polls.
///
/// Every change is a form post that passes ``AdminConsole/refuseCrossSite(_:)`` and carries the session's CSRF token
/// (``AdminConsole/requireCSRF(_:_:)``). Its first submit answers a confirmation page whose button posts the same
/// form again with `confirm=yes`; only that second post changes anything, so nothing depends on script. Changes go
/// through the services the server API uses (``UserService``, ``ActivationService``), so webhooks and lockout rules
/// are the same, and each service records its change in the audit log, in the change's transaction, with the actor
/// `console:` and the session's principal.
struct ConsoleUsers: Sendable {
    /// Users per page of the search.
    static let pageSize = 50
    /// Challenges on the user page.
    static let recentLimit = 20
    /// Sign-ins on the user page (the Sign-ins page, filtered to the user, has them all).
    static let signInLimit = 10

    let console: AdminConsole
    let users: UserService
    let activations: ActivationService
    /// The authentication history, whose latest rows of the user the user page shows.
    let history: SignInHistory
    let clock: WallClock

    func register(in router: inout Router) {
        router.add(.consoleUsers) { [self] request, _ in await console.guarded(request) { try await search(request) } }
        router.add(.consoleUser) { [self] request, parameters in
            await console.guarded(request) { try await user(request, parameters) }
        }
        router.add(.consoleUserData) { [self] request, parameters in
            await console.guarded(request) { try await userData(request, parameters) }
        }
        router.add(.consoleExportUser) { [self] request, parameters in
            await console.guarded(request) { try await exportUser(request, parameters) }
        }
        router.add(.consoleDeleteUser) { [self] request, parameters in
            await console.guarded(request) { try await deleteUser(request, parameters) }
        }
        router.add(.consoleRemoveAuthenticator) { [self] request, parameters in
            await console.guarded(request) { try await removeAuthenticator(request, parameters) }
        }
        router.add(.consoleChangeActivation) { [self] request, parameters in
            await console.guarded(request) { try await changeActivation(request, parameters) }
        }
    }

    // MARK: Pages

    private func search(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let current = try await console.current(request) else { return AdminConsole.redirect(PageRoute.consoleHome.path) }
        let prefix = try PathParameter.query(request, "q", maxBytes: 255) ?? ""
        let after = try PathParameter.query(request, "after", maxBytes: 255)
        let found = try await users.search(tenant: current.tenant, prefix: prefix, after: after, limit: Self.pageSize + 1)
        let notice: String? = request.queryItem("done") == "user-deleted" ? "The user was deleted." : nil
        return AdminConsole.html(ConsoleUserHTML.users(
            current: current, csrf: console.sessions.csrfToken(sessionID: current.sessionID), prefix: prefix, after: after,
            found: Array(found.prefix(Self.pageSize)), more: found.count > Self.pageSize, notice: notice))
    }

    private func user(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        guard let current = try await console.current(request) else { return AdminConsole.redirect(PageRoute.consoleHome.path) }
        let userID = try PathParameter.userID(parameters)
        let csrf = console.sessions.csrfToken(sessionID: current.sessionID)
        guard let user = try await users.stored(tenant: current.tenant, userID: userID) else {
            return AdminConsole.html(ConsoleUserHTML.notFound(current: current, csrf: csrf, what: "user", id: userID), status: 404)
        }
        let authenticators = try await users.authenticators(tenant: current.tenant, userID: userID)
        let activationList = try await activations.activations(tenantID: current.tenant.id, userID: userID)
        let recent = try await users.recentChallenges(tenant: current.tenant, userID: userID, limit: Self.recentLimit)
        var signInQuery = SignInQuery(tenantID: current.tenant.id, limit: Self.signInLimit)
        signInQuery.userID = userID
        let signIns = try await history.page(signInQuery)
        let notice: String? = switch request.queryItem("done") {
        case "authenticator-removed": "The authenticator was removed."
        case "activation-block": "The activation was blocked."
        case "activation-unblock": "The activation was unblocked."
        case "activation-remove": "The activation was removed."
        default: nil
        }
        return AdminConsole.html(ConsoleUserHTML.user(
            current: current, csrf: csrf, user: user, authenticators: authenticators, activations: activationList,
            recent: recent, signIns: signIns, now: clock.nowMilliseconds(), notice: notice))
    }

    /// `GET /admin/api/users/{userId}`: the recent challenges, for the user page's refresh.
    private func userData(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        guard let current = try await console.current(request) else {
            throw AssentError(.unauthorized, "Sign in to the console first.")
        }
        let userID = try PathParameter.userID(parameters)
        let recent = try await users.recentChallenges(tenant: current.tenant, userID: userID, limit: Self.recentLimit)
        let now = clock.nowMilliseconds()
        var response = APIResponses.ok(ConsoleUserData(
            userId: userID,
            challenges: recent.map {
                ConsoleUserData.Row(
                    challengeId: $0.id, url: ConsoleUserHTML.challengePath($0.id), kind: $0.kind.rawValue,
                    kindLabel: ConsoleWords.challengeKind($0.kind), actionCode: $0.actionCode ?? "",
                    state: ConsoleUserHTML.state(of: $0, now: now),
                    stateLabel: ConsoleWords.challengeState(ConsoleUserHTML.state(of: $0, now: now)),
                    createdAt: AdminConsole.iso8601($0.createdAt),
                    answeredAt: $0.answeredAt.map(AdminConsole.iso8601) ?? "")
            }))
        response.headers.replace("Cache-Control", "no-store")
        return response
    }

    // MARK: Changes

    /// The user's data as ``ServerAPI`` exports it, as a download named after the user.
    private func exportUser(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        try await changing(request, parameters) { current, userID, _ in
            let data = try await users.export(tenant: current.tenant, userID: userID, actor: Self.actor(current))
            var response = APIResponses.ok(ServerAPI.response(data, userID: userID, tenant: current.tenant))
            let name = String(userID.unicodeScalars.map { scalar -> Character in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
                    ? Character(scalar) : "_"
            })
            response.headers.replace("Content-Disposition", "attachment; filename=\"assent-user-\(name).json\"")
            response.headers.replace("Cache-Control", "no-store")
            return response
        }
    }

    private func deleteUser(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        try await changing(request, parameters) { current, userID, fields in
            let back = ConsoleUserHTML.userPath(userID)
            guard fields["confirm"] == "yes" else {
                return ConsoleUserHTML.confirm(
                    current: current, csrf: console.sessions.csrfToken(sessionID: current.sessionID),
                    question: "Delete user \(userID) with all their authenticators, activations, actions and challenges?",
                    action: request.path, button: "Delete the user", cancel: back, destructive: true)
            }
            _ = try await users.delete(tenant: current.tenant, userID: userID, actor: Self.actor(current))
            return AdminConsole.redirect(PageRoute.consoleUsers.path + "?done=user-deleted")
        }
    }

    private func removeAuthenticator(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        let id = try PathParameter.identifier(parameters, "authenticatorId")
        return try await changing(request, parameters) { current, userID, fields in
            let back = ConsoleUserHTML.userPath(userID)
            guard let authenticator = try await users.authenticators(tenant: current.tenant, userID: userID)
                .first(where: { $0.id == id })
            else { throw AssentError(.notFound, "The user has no authenticator \(id).") }
            guard fields["confirm"] == "yes" else {
                let device = ConsoleWords.device(platform: authenticator.devicePlatform, name: authenticator.deviceName)
                return ConsoleUserHTML.confirm(
                    current: current, csrf: console.sessions.csrfToken(sessionID: current.sessionID),
                    question: "Remove the \(ConsoleWords.method(authenticator.verificationMethod)) authenticator \(id)"
                        + (device == "—" ? "" : " on \(device)") + " of user \(userID)? The device can no longer answer.",
                    action: request.path, button: "Remove the authenticator", cancel: back, destructive: true)
            }
            try await users.deleteAuthenticator(tenant: current.tenant, userID: userID, id: id, actor: Self.actor(current))
            return AdminConsole.redirect(back + "?done=authenticator-removed")
        }
    }

    private func changeActivation(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        let id = try PathParameter.identifier(parameters, "activationId")
        let change: ActivationService.Change = switch parameters["change"] {
        case "block": .block
        case "unblock": .unblock
        case "remove": .remove
        default: throw AssentError(.notFound, "No such change; block, unblock or remove.")
        }
        return try await changing(request, parameters) { current, userID, fields in
            let back = ConsoleUserHTML.userPath(userID)
            let activation = try await activations.activation(tenantID: current.tenant.id, id: id)
            guard activation.userID == userID else { throw AssentError(.activationNotFound, "No such activation.") }
            guard fields["confirm"] == "yes" else {
                let name = activation.name.map { " “\($0)”" } ?? ""
                return ConsoleUserHTML.confirm(
                    current: current, csrf: console.sessions.csrfToken(sessionID: current.sessionID),
                    question: "\(change.rawValue.capitalized) the activation\(name) \(activation.id) of user \(userID)?",
                    action: request.path, button: "\(change.rawValue.capitalized) the activation", cancel: back,
                    destructive: change != .unblock)
            }
            _ = try await activations.change(tenantID: current.tenant.id, id: id, change, actor: Self.actor(current))
            return AdminConsole.redirect(back + "?done=activation-\(change.rawValue)")
        }
    }

    /// The shared shape of a change: cross-site posts refused, a session required (else back to sign-in), its CSRF
    /// token required, then `body` with the session, the user id and the form's fields.
    private func changing(
        _ request: HTTPRequest, _ parameters: RouteParameters,
        _ body: (ConsoleSessions.Current, String, [String: String]) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try console.refuseCrossSite(request)
        guard let current = try await console.current(request) else { return AdminConsole.redirect(PageRoute.consoleHome.path) }
        try console.requireCSRF(request, current)
        let userID = try PathParameter.userID(parameters)
        return try await body(current, userID, ConsoleForm.fields(request.body))
    }

    /// The audit actor of a console session: `console:secret-key` or `console:admin-token:<id>`.
    static func actor(_ current: ConsoleSessions.Current) -> String { "console:" + current.session.principal }
}
