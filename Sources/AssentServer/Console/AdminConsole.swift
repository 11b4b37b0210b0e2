import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The admin console at `/admin/`: sign-in with a tenant's secret key or an admin token, a server-side session in a
/// cookie, and the signed-in tenant's pages.
///
/// - The session cookie is `HttpOnly; SameSite=Strict; Path=/admin`, and `Secure` when the server serves TLS or the
///   public URL is https.
/// - Every form post is refused `403 cross_site_request` when the browser says it comes from another site
///   (`Sec-Fetch-Site` other than `same-origin`/`none`, or an `Origin` other than this request's or the public URL's,
///   scheme, host and port compared); every post of a
///   signed-in page must also carry the session's CSRF token (``ConsoleSessions``), so a cross-site form post fails
///   even from a browser that sends neither header.
/// - Sign-in attempts are rate-limited per client address (`console-sign-in-address`) and recorded, accepted or not.
/// - A refused sign-in answers `303` back to the sign-in page with a notice (no cookie); failures that are not a
///   person's mistake are the JSON error envelope.
struct AdminConsole: Sendable {
    /// The session cookie's name.
    static let cookieName = "assent_console"

    let sessions: ConsoleSessions
    let limits: RequestLimits
    let publicURL: PublicURL
    /// Whether the API listener serves HTTPS (`--tls-cert`).
    let servesTLS: Bool
    let logger: Logger

    func register(in router: inout Router) {
        router.add(.consoleRedirect) { _, _ in Self.redirect(PageRoute.consoleHome.path) }
        router.add(.consoleHome) { [self] request, _ in await guarded(request) { try await home(request) } }
        router.add(.consoleSignIn) { [self] request, _ in await guarded(request) { try await signIn(request) } }
        router.add(.consoleSignOut) { [self] request, _ in await guarded(request) { try await signOut(request) } }
        router.addFallback(under: PageRoute.consoleHome.path) { [self] request, _ in await notFound(request) }
    }

    func guarded(_ request: HTTPRequest, _ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do {
            return try await body()
        } catch {
            return APIResponses.failure(error, request: request, logger: logger)
        }
    }

    // MARK: Routes

    private func home(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let current = try await current(request) else {
            let notice: String? = switch request.queryItem("error") {
            case "refused": "That secret key or admin token was not accepted."
            case "rate-limited": "Too many sign-in attempts from this address; wait a minute and try again."
            case "signed-out": "Signed out."
            default: nil
            }
            var response = Self.html(ConsoleHTML.signIn(notice: notice))
            if request.headers["Cookie"].flatMap({ ConsoleForm.cookie(Self.cookieName, in: $0) }) != nil {
                response.headers.add("Set-Cookie", clearedCookie)
            }
            return response
        }
        return Self.html(ConsoleOverview.page(current, csrf: sessions.csrfToken(sessionID: current.sessionID)))
    }

    /// A path under `/admin/` that no route matches: for a browser (`Accept` naming `text/html`) a console page with
    /// status 404, signed in or not; for anything else, and always under `/admin/api/` (the console's JSON), the JSON
    /// `404 not_found` every unknown path gets.
    private func notFound(_ request: HTTPRequest) async -> HTTPResponse {
        let wantsHTML = request.headers["Accept"]?.lowercased().contains("text/html") ?? false
        guard wantsHTML, !request.path.hasPrefix("/admin/api/"), request.method == "GET" || request.method == "HEAD" else {
            return .notFound
        }
        let current = try? await current(request)
        let signedIn = current.map { (current: $0, csrf: sessions.csrfToken(sessionID: $0.sessionID)) }
        return Self.html(ConsoleHTML.notFound(path: request.path, signedIn: signedIn), status: 404)
    }

    private func signIn(_ request: HTTPRequest) async throws -> HTTPResponse {
        try refuseCrossSite(request)
        do {
            try limits.address(.consoleSignInAddress, request)
        } catch let error as AssentError where error.code == .rateLimited {
            var response = Self.redirect(PageRoute.consoleHome.path + "?error=rate-limited")
            if let seconds = error.retryAfterSeconds { response.headers.replace("Retry-After", String(seconds)) }
            return response
        }
        let credential = ConsoleForm.fields(request.body)["credential"] ?? ""
        guard let signedIn = try await sessions.signIn(credential: credential, remoteAddress: request.remoteAddress) else {
            return Self.redirect(PageRoute.consoleHome.path + "?error=refused")
        }
        var response = Self.redirect(PageRoute.consoleHome.path)
        // The cookie lasts as long as the session can (an admin token's session ends with its token).
        let lifetime = (signedIn.session.expiresAt - signedIn.session.createdAt + 999) / 1000
        response.headers.add("Set-Cookie", cookie(signedIn.sessionID, maxAge: max(1, lifetime)))
        return response
    }

    private func signOut(_ request: HTTPRequest) async throws -> HTTPResponse {
        try refuseCrossSite(request)
        guard let current = try await current(request) else { return Self.redirect(PageRoute.consoleHome.path) }
        try requireCSRF(request, current)
        try await sessions.signOut(current)
        var response = Self.redirect(PageRoute.consoleHome.path + "?error=signed-out")
        response.headers.add("Set-Cookie", clearedCookie)
        return response
    }

    // MARK: Sessions and their protection

    /// The request's live session, if its cookie names one.
    func current(_ request: HTTPRequest) async throws -> ConsoleSessions.Current? {
        guard let id = ConsoleForm.cookie(Self.cookieName, in: request.headers["Cookie"]) else { return nil }
        return try await sessions.current(sessionID: id)
    }

    /// Throws `403 cross_site_request` unless the post carries the session's CSRF token (field `csrf`).
    func requireCSRF(_ request: HTTPRequest, _ current: ConsoleSessions.Current) throws {
        guard sessions.isValidCSRFToken(ConsoleForm.fields(request.body)["csrf"], sessionID: current.sessionID) else {
            throw AssentError(.crossSiteRequest, "This form post lacks its CSRF token; reload the page and try again.")
        }
    }

    /// Throws `403 cross_site_request` when the browser says the post comes from another site: `Sec-Fetch-Site` other
    /// than `same-origin`/`none`, or an `Origin` that is neither this request's origin (the scheme this listener
    /// serves, the `Host` header's host and port) nor the public URL's — scheme, host and port all compared.
    func refuseCrossSite(_ request: HTTPRequest) throws {
        if let site = request.headers["Sec-Fetch-Site"], !["same-origin", "none"].contains(site) {
            throw AssentError(.crossSiteRequest, "Cross-site form posts to the console are refused.")
        }
        if let header = request.headers["Origin"] {
            let own = request.headers["Host"].flatMap { ConsoleOrigin(scheme: servesTLS ? "https" : "http", host: $0) }
            guard let origin = ConsoleOrigin(header), origin == own || origin == ConsoleOrigin(url: publicURL.current)
            else {
                throw AssentError(.crossSiteRequest, "Cross-site form posts to the console are refused.")
            }
        }
    }

    private var isSecure: Bool { servesTLS || publicURL.current.lowercased().hasPrefix("https://") }

    private func cookie(_ value: String, maxAge: Int64) -> String {
        "\(Self.cookieName)=\(value); Path=/admin; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (isSecure ? "; Secure" : "")
    }

    private var clearedCookie: String { cookie("", maxAge: 0) }

    // MARK: Helpers

    static func describe(_ principal: String) -> String {
        principal == "secret-key" ? "the tenant's secret key" : "admin token " + principal.dropFirst("admin-token:".count)
    }

    static func iso8601(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }

    static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: HTTPHeaders([
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("Content-Security-Policy", WebPages.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
                // Not `no-referrer`: with it, Chromium sends `Origin: null` on the console's own form posts, which
                // the cross-site check refuses. Console URLs carry no secrets.
                ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"),
            ]),
            body: Array(text.utf8))
    }
}
