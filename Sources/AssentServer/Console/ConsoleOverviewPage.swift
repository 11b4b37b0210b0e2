import AssentLog
import AssentServerCore
import AssentWire

/// The overview page's `<main>`: totals, the last hour's counts, a chart of challenges per minute with a legend whose
/// buttons show or hide a series, the same figures as a table (the chart's text alternative), and the session's facts.
/// The figures start as "–" and `web/console-overview.js` fills them from `GET /admin/api/overview` every second.
enum ConsoleOverviewPage {
    /// The four series, in legend order: the JSON key (also the element id part) and the label.
    static let series: [(key: String, label: String)] = [
        ("started", "Started"), ("approved", "Approved"), ("denied", "Denied"), ("expired", "Expired"),
    ]

    static func main(_ current: ConsoleSessions.Current) -> String {
        let hour = series.map { key, label in
            "<div class=\"count\"><dt>\(label)</dt><dd id=\"hour-\(key)\">–</dd></div>"
        }.joined(separator: "\n")
        let legend = series.map { key, label in
            """
            <button type="button" class="series series-\(key)" id="legend-\(key)" data-series="\(key)" aria-pressed="true">\
            <span class="swatch" aria-hidden="true"></span>\(label)</button>
            """
        }.joined(separator: "\n")
        let headings = series.map { "<th scope=\"col\">\($0.label)</th>" }.joined()
        return """
            <link rel="stylesheet" href="/web/console-overview.css">
            <main id="overview" data-source="\(PageRoute.consoleOverview.path)">
            <h1>Overview</h1>
            <noscript><p class="notice">The counts and chart need JavaScript; <a href="\(PageRoute.consoleOverview.path)">the figures as JSON</a>.</p></noscript>
            <section aria-labelledby="totals-heading">
            <h2 id="totals-heading">Now</h2>
            <dl class="counts">
            <div class="count"><dt>Users</dt><dd id="count-users">–</dd></div>
            <div class="count"><dt>Authenticators</dt><dd id="count-authenticators">–</dd>\
            <dd class="detail" id="count-authenticators-detail"></dd></div>
            <div class="count"><dt>PowerAuth activations</dt><dd id="count-activations">–</dd>\
            <dd class="detail" id="count-activations-detail"></dd></div>
            </dl>
            </section>
            <section aria-labelledby="hour-heading">
            <h2 id="hour-heading">Challenges in the last hour</h2>
            <dl class="counts">
            \(hour)
            </dl>
            <div class="legend" role="group" aria-label="Show or hide a series in the chart">
            \(legend)
            </div>
            <figure class="chart">
            <svg id="overview-chart" viewBox="0 0 640 260" role="img" aria-labelledby="chart-title chart-summary" \
            tabindex="0" focusable="true"><title id="chart-title">Challenges per minute over the last hour</title></svg>
            <figcaption id="chart-summary">Challenges per minute over the last hour: waiting for the first figures.</figcaption>
            </figure>
            <details id="overview-table-details">
            <summary>The chart's figures as a table</summary>
            <div class="table-scroll">
            <table id="overview-table">
            <caption>Challenges per minute, newest first</caption>
            <thead><tr><th scope="col">Minute (UTC)</th>\(headings)</tr></thead>
            <tbody></tbody>
            </table>
            </div>
            </details>
            <p class="hint" id="overview-status" role="status">Loading…</p>
            </section>
            <section aria-labelledby="session-heading">
            <h2 id="session-heading">This session</h2>
            <dl class="facts">
            <dt>Tenant</dt><dd id="tenant-id">\(MarkupText.escape(current.tenant.id))</dd>
            <dt>Signed in with</dt><dd id="principal">\(MarkupText.escape(AdminConsole.describe(current.session.principal)))</dd>
            <dt>Session ends</dt><dd>\(AdminConsole.iso8601(min(current.session.idleExpiresAt, current.session.expiresAt))) \
            unless used (at the latest \(AdminConsole.iso8601(current.session.expiresAt)))</dd>
            </dl>
            </section>
            <script src="/web/console-overview.js" defer></script>
            </main>
            """
    }
}
