import AssentHTTP
import AssentServerCore
import AssentWire

/// `GET /admin/challenges/{challengeId}`: one challenge of the signed-in tenant with its timeline (the start, the
/// push deliveries and webhook calls the store recorded, the answer). Another tenant's challenge is as unknown as one
/// that never existed: a `404` page.
struct ConsoleChallengePage: Sendable {
    let console: AdminConsole
    let history: ChallengeHistory
    let clock: WallClock

    func register(in router: inout Router) {
        router.add(.consoleChallenge) { [self] request, parameters in
            await console.guarded(request) { try await page(request, parameters) }
        }
    }

    private func page(_ request: HTTPRequest, _ parameters: RouteParameters) async throws -> HTTPResponse {
        guard let current = try await console.current(request) else { return AdminConsole.redirect(PageRoute.consoleHome.path) }
        let id = try PathParameter.identifier(parameters, "challengeId")
        let csrf = console.sessions.csrfToken(sessionID: current.sessionID)
        let read = try await history.read(tenantID: current.tenant.id, challengeID: id)
        guard let challenge = read.challenge else {
            return AdminConsole.html(
                ConsoleUserHTML.notFound(current: current, csrf: csrf, what: "challenge", id: id), status: 404)
        }
        return AdminConsole.html(ConsoleUserHTML.challenge(
            current: current, csrf: csrf, challenge: challenge, timeline: read.recorded, deliveries: read.deliveries,
            now: clock.nowMilliseconds()))
    }
}
