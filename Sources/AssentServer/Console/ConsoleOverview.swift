import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire

/// The console's overview: the page (``page(_:csrf:)``, the signed-in home) and its data,
/// `GET /admin/api/overview` — the tenant's live totals and per-minute challenge counts over the last hour as JSON,
/// which the page's script (`web/console-overview.js`) reads every second. The data needs the console session's
/// cookie (`401 unauthorized`, the JSON error envelope, without one) and is never cached.
struct ConsoleOverview: Sendable {
    let console: AdminConsole
    let reader: OverviewReader
    let logger: Logger

    func register(in router: inout Router) {
        router.add(.consoleOverview) { [self] request, _ in await data(request) }
    }

    private func data(_ request: HTTPRequest) async -> HTTPResponse {
        var response: HTTPResponse
        do {
            guard let current = try await console.current(request) else {
                throw AssentError(.unauthorized, "Sign in to the console first.")
            }
            let overview = try await reader.overview(tenantID: current.tenant.id)
            response = APIResponses.ok(ConsoleOverviewJSON(overview, tenantID: current.tenant.id))
        } catch {
            response = APIResponses.failure(error, request: request, logger: logger)
        }
        response.headers.replace("Cache-Control", "no-store")
        response.headers.replace("X-Content-Type-Options", "nosniff")
        return response
    }

    /// The signed-in home page: the overview's counts and chart (filled in by the script), and the session's facts.
    static func page(_ current: ConsoleSessions.Current, csrf: String) -> String {
        ConsoleHTML.signedInPage(
            title: "Overview", current: current, csrf: csrf, section: .overview, body: ConsoleOverviewPage.main(current))
    }
}
