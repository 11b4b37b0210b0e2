import AssentHTTP
import AssentServerCore
import AssentWire

/// What the console's signed-in pages (settings, push providers, audit log) share: failures as the JSON error
/// envelope, a redirect to the sign-in page without a live session, and the checks every form post passes first.
extension AdminConsole {
    /// `body`'s response, or the JSON error envelope for what it throws.
    func answer(_ request: HTTPRequest, _ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do {
            return try await body()
        } catch {
            return APIResponses.failure(error, request: request, logger: logger)
        }
    }

    /// A signed-in page: `body` with the request's live session, or a redirect to the sign-in page.
    func page(
        _ request: HTTPRequest, _ body: (ConsoleSessions.Current) async throws -> HTTPResponse
    ) async -> HTTPResponse {
        await answer(request) {
            guard let current = try await current(request) else { return Self.redirect(PageRoute.consoleHome.path) }
            return try await body(current)
        }
    }

    /// A signed-in form post: refused `403 cross_site_request` when it comes from another site or lacks the session's
    /// CSRF token (nothing changes then); a redirect to the sign-in page without a live session.
    func post(
        _ request: HTTPRequest, _ body: (ConsoleSessions.Current) async throws -> HTTPResponse
    ) async -> HTTPResponse {
        await answer(request) {
            try refuseCrossSite(request)
            guard let current = try await current(request) else { return Self.redirect(PageRoute.consoleHome.path) }
            try requireCSRF(request, current)
            return try await body(current)
        }
    }

    /// The session's CSRF token, for its pages' forms.
    func csrf(_ current: ConsoleSessions.Current) -> String {
        sessions.csrfToken(sessionID: current.sessionID)
    }
}
