import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The console's audit log page (`GET /admin/audit`): the tenant's audit chain, newest first, a page at a time,
/// filtered by event kind (`kind`), time range (`since`, `until`: UTC, as a `datetime-local` control sends them, or
/// ISO-8601) and principal (`actor`), paged back with `before` (the last sequence shown). The chain's verification
/// (every entry's MAC, ``AuditLog/verify(tenantID:)``) reads the whole chain, so it runs when asked (`verify=1`),
/// not on every page. A filter that cannot be read is shown beside its control and lists nothing.
struct ConsoleAuditPage: Sendable {
    let console: AdminConsole
    let audit: AuditLog

    /// Entries per page.
    static let pageSize = 50

    /// The kinds the filter offers (any other kind may still be named in the URL).
    static let kinds: [AuditKind] = [
        .consoleSignIn, .consoleSignOut, .settingsChanged, .pushProviderChanged, .tenantCreated, .secretRotated,
        .credentialEnrolled, .credentialRemoved, .activationBlocked, .activationUnblocked, .activationRemoved, .userDeleted,
        .userExported, .fraudReported, .rateLimited, .seeded, .checkpoint,
    ]

    /// The filters a request asks for, with a message per filter that cannot be read.
    struct Filters: Sendable, Equatable {
        var kind = "", actor = "", since = "", until = ""
        var before: Int64?
        var errors: [String: String] = [:]

        /// Reads the filters from `item` (a query item's value by name).
        init(_ item: (String) -> String?) {
            func text(_ name: String, _ maxBytes: Int) -> String {
                let value = (item(name) ?? "").trimmingCharacters(in: .whitespaces)
                return value.utf8.count <= maxBytes ? value : String(decoding: value.utf8.prefix(maxBytes), as: UTF8.self)
            }
            kind = text("kind", 100)
            actor = text("actor", 200)
            since = text("since", 40)
            until = text("until", 40)
            if let cursor = item("before"), !cursor.isEmpty {
                if let value = Int64(cursor), value > 0 { before = value } else { errors["before"] = "Not a page this server gave." }
            }
            if !since.isEmpty, Self.milliseconds(since, end: false) == nil {
                errors["since"] = "From must be a UTC date and time, e.g. 2026-12-01T09:30."
            }
            if !until.isEmpty, Self.milliseconds(until, end: true) == nil {
                errors["until"] = "To must be a UTC date and time, e.g. 2026-12-01T17:00."
            }
        }

        /// The query these filters make over `tenantID`'s chain (one more entry than a page, to tell whether an older
        /// page exists).
        func query(tenantID: String) -> AuditQuery {
            var query = AuditQuery(tenantID: tenantID, limit: ConsoleAuditPage.pageSize + 1)
            query.newestFirst = true
            if let before { query.beforeSequence = before }
            if let since = Self.milliseconds(since, end: false) { query.since = since }
            if let until = Self.milliseconds(until, end: true) { query.until = until }
            if !kind.isEmpty { query.kind = AuditKind(rawValue: kind) }
            if !actor.isEmpty { query.actor = actor }
            return query
        }

        /// Milliseconds of a UTC time as `datetime-local` sends it (`2026-12-01T09:30`, seconds optional) or ISO-8601
        /// (``Timestamp/milliseconds(_:)``). At the `end` of a range, a time names its whole minute (or second, or day).
        static func milliseconds(_ text: String, end: Bool) -> Int64? {
            let utf8 = text.utf8.count
            let (iso, span): (String, Int64) = switch utf8 {
            case 10: (text, 86_400_000)
            case 16: (text + ":00Z", 60_000)
            case 19: (text + "Z", 1000)
            default: (text, 1)
            }
            guard !text.allSatisfy(\.isNumber), let value = Timestamp.milliseconds(iso) else { return nil }
            return end ? value + span - 1 : value
        }

        /// The query string of these filters (without `before`), for links.
        var queryString: String {
            let pairs = [("kind", kind), ("actor", actor), ("since", since), ("until", until)].filter { !$0.1.isEmpty }
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~:")
            return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                .joined(separator: "&")
        }
    }

    func register(in router: inout Router) {
        router.add(.consoleAudit) { [self] request, _ in
            await console.page(request) { current in try await page(request, current) }
        }
    }

    private func page(_ request: HTTPRequest, _ current: ConsoleSessions.Current) async throws -> HTTPResponse {
        let filters = Filters { request.queryItem($0) }
        var entries: [AuditEntry] = []
        if filters.errors.isEmpty {
            entries = try await audit.entries(filters.query(tenantID: current.tenant.id))
        }
        let hasOlder = entries.count > Self.pageSize
        entries = Array(entries.prefix(Self.pageSize))
        var verification = ""
        if request.queryItem("verify") == "1" {
            let check = try await audit.verify(tenantID: current.tenant.id)
            let result = check.verification
            verification = result.isIntact
                ? ConsoleFormHTML.notice(
                    "The chain verifies: \(result.entries) entries, each where and as it was written"
                        + (check.head.map { " (head \($0))" } ?? "") + ".", isError: false)
                : ConsoleFormHTML.notice(
                    "The chain is broken at entry \(result.firstBadSequence ?? 0): \(result.problem)", isError: true)
        }
        return AdminConsole.html(render(current, filters, entries, hasOlder: hasOlder, verification: verification))
    }

    private func render(
        _ current: ConsoleSessions.Current, _ filters: Filters, _ entries: [AuditEntry], hasOlder: Bool, verification: String
    ) -> String {
        let e = MarkupText.escape
        let kindOptions: [(String, String)] = [("", "any kind")] + Self.kinds.map { ($0.rawValue, $0.rawValue) }
            + (filters.kind.isEmpty || Self.kinds.contains(AuditKind(rawValue: filters.kind)) ? [] : [(filters.kind, filters.kind)])
        let options = kindOptions.map { value, title in
            "<option value=\"\(e(value))\"\(value == filters.kind ? " selected" : "")>\(e(title))</option>"
        }.joined()
        func error(_ name: String) -> String {
            filters.errors[name].map { "<p class=\"field-error\" id=\"\(name)-error\" role=\"alert\">\(e($0))</p>" } ?? ""
        }
        func invalid(_ name: String) -> String {
            filters.errors[name] == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"\(name)-error\""
        }
        let rows = entries.map { entry in
            let details = entry.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            return """
                <tr data-kind="\(e(entry.kind.rawValue))"><td class="sequence" data-label="#">\(entry.sequence)</td>\
                <td data-label="When"><time datetime="\(Timestamp.iso8601(milliseconds: entry.at))">\
                \(Timestamp.iso8601(milliseconds: entry.at))</time></td>\
                <td class="kind" data-label="Kind">\(e(entry.kind.rawValue))</td>\
                <td class="actor" data-label="Principal">\(e(entry.actor))</td>\
                <td data-label="Subject">\(e(entry.subject))</td><td class="details" data-label="Details">\(e(details))</td></tr>
                """
        }.joined(separator: "\n")
        let table = entries.isEmpty
            ? "<p id=\"no-entries\">No entries\(filters.errors.isEmpty ? " match these filters" : "").</p>"
            : """
                <div class="scroll" role="region" aria-label="Audit entries" tabindex="0">
                <table id="audit-entries" class="cards">
                <thead><tr><th scope="col">#</th><th scope="col">When (UTC)</th><th scope="col">Kind</th>\
                <th scope="col">Principal</th><th scope="col">Subject</th><th scope="col">Details</th></tr></thead>
                <tbody>
                \(rows)
                </tbody>
                </table>
                </div>
                """
        let query = filters.queryString
        var links: [String] = []
        if filters.before != nil {
            links.append("<a href=\"\(PageRoute.consoleAudit.path)\(query.isEmpty ? "" : "?" + query)\" id=\"newest-page\">Newest</a>")
        }
        if hasOlder, let last = entries.last {
            let separator = query.isEmpty ? "" : "&"
            links.append("<a href=\"\(PageRoute.consoleAudit.path)?\(query)\(separator)before=\(last.sequence)\" id=\"older-page\">Older entries</a>")
        }
        return ConsoleFormHTML.page(
            title: "Audit log", current: current, csrf: console.csrf(current), section: .audit, main: """
                <h1>Audit log</h1>
                \(verification)
                \(error("before"))
                <form method="get" action="\(PageRoute.consoleAudit.path)" id="audit-filters" class="filters">
                <div class="field"><label for="kind">Kind</label><select id="kind" name="kind">\(options)</select></div>
                <div class="field"><label for="actor">Principal</label><input type="text" id="actor" name="actor" \
                value="\(e(filters.actor))" placeholder="secret-key, admin-token:adt_…" autocomplete="off" maxlength="200"></div>
                <div class="field"><label for="since">From (UTC)</label><input type="datetime-local" id="since" name="since" \
                value="\(e(filters.since))"\(invalid("since"))>\(error("since"))</div>
                <div class="field"><label for="until">To (UTC)</label><input type="datetime-local" id="until" name="until" \
                value="\(e(filters.until))"\(invalid("until"))>\(error("until"))</div>
                <button type="submit" id="filter">Filter</button>
                </form>
                <p class="hint">Newest first, \(Self.pageSize) to a page. Every console sign-in and change is here with the
                principal that made it. Each entry's MAC chains it to the one before;
                <a href="\(PageRoute.consoleAudit.path)?verify=1" id="verify-chain">verify the chain</a> (reads it all) or run
                <code>assent admin audit verify --tenant \(e(current.tenant.id))</code>.</p>
                \(table)
                <nav class="pages" aria-label="Audit pages">\(links.joined(separator: " "))</nav>
                """)
    }
}
