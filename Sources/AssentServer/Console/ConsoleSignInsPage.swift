import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The console's Sign-ins page (`GET /admin/sign-ins`): the tenant's authentication history, newest first, a page at
/// a time, filtered by user, outcome, method, action and time. The filters are the server API's own
/// (``SignInFilter``, the same parameter names and rules as `GET /v1/sign-ins`), so a page and an API call with the
/// same words list the same rows; `format=csv` or `format=jsonl` downloads the filtered rows as the API exports them.
/// The user page shows the user's latest rows (``table(_:id:)``) and links here filtered to the user.
struct ConsoleSignInsPage: Sendable {
    let console: AdminConsole
    let history: SignInHistory

    /// Rows per page.
    static let pageSize = 50

    func register(in router: inout Router) {
        router.add(.consoleSignIns) { [self] request, _ in
            await console.page(request) { current in try await page(request, current) }
        }
    }

    private func page(_ request: HTTPRequest, _ current: ConsoleSessions.Current) async throws -> HTTPResponse {
        let format = request.queryItem("format") ?? ""
        var error: String?
        var rows: [SignIn] = []
        var query = SignInQuery(tenantID: current.tenant.id, limit: Self.pageSize)
        do {
            let export = format == "csv" || format == "jsonl"
            query = try SignInFilter.query(
                tenantID: current.tenant.id, defaultLimit: export ? SignInAPI.maxExportLimit : Self.pageSize,
                maxLimit: export ? SignInAPI.maxExportLimit : SignInAPI.maxLimit) { request.queryItem($0) }
            rows = try await history.page(query)
            if export { return try SignInAPI.export(rows, format: format, next: SignInFilter.nextCursor(rows, limit: query.limit)) }
        } catch let refusal as AssentError {
            error = refusal.reason
        }
        return AdminConsole.html(render(current, request, rows, query: query, error: error))
    }

    /// The filter values as the request gave them, by name (for the form and links).
    private static func given(_ request: HTTPRequest) -> [String: String] {
        var values: [String: String] = [:]
        for name in SignInFilter.names {
            if let value = request.queryItem(name), !value.isEmpty, value.utf8.count <= 255 { values[name] = value }
        }
        return values
    }

    /// `pairs` as a query string.
    private static func queryString(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\(ConsoleUserHTML.queryValue($0.1))" }.joined(separator: "&")
    }

    private func render(
        _ current: ConsoleSessions.Current, _ request: HTTPRequest, _ rows: [SignIn], query: SignInQuery, error: String?
    ) -> String {
        let e = MarkupText.escape
        let given = Self.given(request)
        func select(_ name: String, _ label: String, _ choices: [String]) -> String {
            let options = ([""] + choices).map { value in
                "<option value=\"\(e(value))\"\(given[name, default: ""] == value ? " selected" : "")>\(value.isEmpty ? "any" : e(value))</option>"
            }.joined()
            return "<div class=\"field\"><label for=\"\(name)\">\(label)</label><select id=\"\(name)\" name=\"\(name)\">\(options)</select></div>"
        }
        func input(_ name: String, _ label: String, placeholder: String) -> String {
            """
            <div class="field"><label for="\(name)">\(label)</label><input type="text" id="\(name)" name="\(name)" \
            value="\(e(given[name, default: ""]))" placeholder="\(e(placeholder))" autocomplete="off" maxlength="255"></div>
            """
        }
        let filters = SignInFilter.names.compactMap { name in given[name].map { (name, $0) } }
        let base = PageRoute.consoleSignIns.path
        var links: [String] = []
        if request.queryItem("cursor") != nil {
            links.append("<a href=\"\(base)\(filters.isEmpty ? "" : "?" + Self.queryString(filters))\" id=\"newest-page\">Newest</a>")
        }
        if let next = SignInFilter.nextCursor(rows, limit: query.limit) {
            links.append("<a href=\"\(base)?\(Self.queryString(filters + [("cursor", next)]))\" id=\"older-page\">Older sign-ins</a>")
        }
        let exports = ["csv", "jsonl"].map { format in
            "<a href=\"\(base)?\(Self.queryString(filters + [("format", format)]))\" id=\"export-\(format)\" download>\(format.uppercased())</a>"
        }.joined(separator: " ")
        let notice = error.map { ConsoleFormHTML.notice($0, isError: true) } ?? ""
        return ConsoleFormHTML.page(
            title: "Sign-ins", current: current, csrf: console.csrf(current), section: .signIns, main: """
                <h1>Sign-ins</h1>
                \(notice)
                <form method="get" action="\(base)" id="sign-in-filters" class="filters">
                \(input("user", "User", placeholder: "user id"))
                \(select("outcome", "Outcome", SignIn.Outcome.allCases.map(\.rawValue)))
                \(select("method", "Method", SignInFilter.methods))
                \(input("action", "Action", placeholder: "action code"))
                \(input("from", "From (UTC)", placeholder: "2026-12-01T09:30:00Z"))
                \(input("to", "To (UTC)", placeholder: "2026-12-01T17:00:00Z"))
                <button type="submit" id="filter">Filter</button>
                </form>
                <p class="hint">Newest first, \(query.limit) to a page; kept \(current.tenant.settings.signInHistoryRetentionDays)
                days (the tenant's sign-in history retention). The same filters as <code>GET /v1/sign-ins</code>.
                Download these sign-ins: \(exports).</p>
                \(Self.table(rows, id: "sign-ins"))
                <nav class="pages" aria-label="Sign-in pages">\(links.joined(separator: " "))</nav>
                """)
    }

    /// The table of `rows` (element id `id`), or a line saying there are none.
    static func table(_ rows: [SignIn], id: String) -> String {
        let e = MarkupText.escape
        guard !rows.isEmpty else { return "<p id=\"no-\(id)\">No sign-ins.</p>" }
        let body = rows.map { row in
            let user = "<a href=\"\(ConsoleUserHTML.userPath(row.userID))\">\(e(row.userID))</a>"
            let challenge = row.challengeID.map { "<a href=\"\(ConsoleUserHTML.challengePath($0))\">\(e(String($0.prefix(12))))…</a>" } ?? "—"
            // Words for the operator in the cells; the wire names in the row's attributes (as the user page's
            // other tables do).
            let method = Challenge.Kind(rawValue: row.method).map(ConsoleWords.challengeKind) ?? ConsoleWords.sentence(row.method)
            let factor = row.factor.map { " + " + ConsoleWords.sentence($0).lowercased() } ?? ""
            return """
                <tr data-outcome="\(e(row.outcome.rawValue))" data-method="\(e(row.method))"><td class="time" data-label="When">\
                <time datetime="\(Timestamp.iso8601(milliseconds: row.at))">\(AdminConsole.iso8601(row.at))</time></td>\
                <td class="user" data-label="User">\(user)</td>\
                <td class="action" data-label="Action">\(e(row.actionCode ?? "—"))</td>\
                <td class="method" data-label="Method">\(e(method + factor))</td>\
                <td class="outcome" data-label="Outcome">\(e(ConsoleWords.sentence(row.outcome.rawValue)))</td>\
                <td class="reason" data-label="Reason">\(e(row.reason.map(ConsoleWords.sentence) ?? "—"))</td>\
                <td data-label="IP address">\(e(row.ipAddress ?? "—"))</td>\
                <td data-label="Took">\(row.verificationMilliseconds.map { "\($0) ms" } ?? "—")</td>\
                <td data-label="Challenge">\(challenge)</td></tr>
                """
        }.joined(separator: "\n")
        return """
            <div class="scroll" role="region" aria-label="Sign-ins" tabindex="0">
            <table id="\(id)" class="cards">
            <thead><tr><th scope="col">When (UTC)</th><th scope="col">User</th><th scope="col">Action</th>\
            <th scope="col">Method</th><th scope="col">Outcome</th><th scope="col">Reason</th><th scope="col">IP address</th>\
            <th scope="col">Took</th><th scope="col">Challenge</th></tr></thead>
            <tbody>
            \(body)
            </tbody>
            </table>
            </div>
            """
    }
}
