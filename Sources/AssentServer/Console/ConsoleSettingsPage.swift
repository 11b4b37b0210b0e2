import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire

/// The console's settings page (`/admin/settings`): every tenant setting (``TenantSettings/table``) as a labelled
/// control with its current value and its effect, in groups (``TenantSetting/Group``: actions, push, QR codes,
/// PowerAuth, webhooks, limits), each a `<fieldset>`; durations say their range and stored value in units.
///
/// A post (same-site, with the session's CSRF token) is read whole by each setting's rules — those of
/// `assent admin tenant settings` and the server API (``ConsoleSettingsForm``) — and a URL the tenant gives is checked against the server's ``OutboundURLPolicy``.
/// Any invalid value re-renders the form with each error beside its field and changes nothing; otherwise the change
/// goes through the ``TenantDirectory`` (the next request sees it, other instances at their change watch) and is
/// recorded in the audit log as `tenant.settings_changed` with the session's principal and the names of the changed
/// settings, never their values.
struct ConsoleSettingsPage: Sendable {
    let console: AdminConsole
    let tenants: TenantDirectory
    let destinations: OutboundURLPolicy

    func register(in router: inout Router) {
        router.add(.consoleSettings) { [self] request, _ in
            await console.page(request) { current in
                let notice = request.queryItem("saved") == "1"
                    ? ConsoleFormHTML.notice("Settings saved. They apply from the next request.", isError: false) : ""
                return AdminConsole.html(render(current, values: [:], errors: [:], notice: notice))
            }
        }
        router.add(.consoleSettingsChange) { [self] request, _ in
            await console.post(request) { current in try await change(request, current) }
        }
    }

    private func change(_ request: HTTPRequest, _ current: ConsoleSessions.Current) async throws -> HTTPResponse {
        let form = ConsoleForm.fields(request.body)
        let before = current.tenant.settings
        var outcome = ConsoleSettingsForm.read(form, into: before)
        if outcome.errors.isEmpty, let url = outcome.settings.webhookURL, url != before.webhookURL {
            do {
                try await destinations.check(url, field: "Webhook URL")
            } catch let error as AssentError {
                outcome.errors["webhookURL"] = error.reason
            }
        }
        guard outcome.errors.isEmpty else {
            // The notice names each refused field and links to it, so a keyboard (or a phone's narrow page) gets there.
            let links = TenantSettings.table.filter { outcome.errors[$0.name] != nil }.map {
                "<a href=\"#\($0.name)\">\(MarkupText.escape($0.label))</a>"
            }
            let notice = "<p class=\"notice\" id=\"notice\" role=\"alert\">Nothing was saved; not valid: "
                + links.joined(separator: ", ") + ".</p>"
            // 400, as the API answers bad input; the browser shows the page all the same.
            return AdminConsole.html(render(current, values: form, errors: outcome.errors, notice: notice), status: 400)
        }
        // Read again over the stored settings, so a change made since the page was read (the push provider, say)
        // is kept; the values were valid above and are read by the same rules.
        _ = try await tenants.updateSettings(tenantID: current.tenant.id, actor: current.session.principal) { settings in
            settings = ConsoleSettingsForm.read(form, into: settings).settings
        }
        return AdminConsole.redirect(PageRoute.consoleSettings.path + "?saved=1")
    }

    /// The page, with `values` (a refused post's) over the current ones and `errors` beside their fields.
    private func render(
        _ current: ConsoleSessions.Current, values: [String: String], errors: [String: String], notice: String
    ) -> String {
        let settings = current.tenant.settings
        func html(_ setting: TenantSetting) -> String {
            let kind: ConsoleFormHTML.Kind = switch setting.control {
            case .text(let numeric): .text(numeric: numeric)
            case .choice(let options): .choice(options)
            case .lines: .lines(rows: 3)
            }
            let stored = setting.words(settings).map { " Now \($0)." } ?? ""
            return ConsoleFormHTML.field(
                name: setting.name, label: setting.label, effect: setting.effect,
                accepts: "Accepts " + setting.accepts + "." + stored,
                kind: kind, value: values[setting.name] ?? setting.text(settings), error: errors[setting.name])
        }
        let e = MarkupText.escape
        let groups = TenantSetting.Group.allCases.map { group in
            """
            <fieldset id="\(ConsoleSettingsForm.elementID(group))">
            <legend>\(e(group.title))</legend>
            <p class="hint">\(e(group.summary))</p>
            <div class="group-fields">
            \(TenantSettings.table.filter { $0.group == group }.map(html).joined(separator: "\n"))
            </div>
            </fieldset>
            """
        }.joined(separator: "\n")
        let contents = TenantSetting.Group.allCases.map {
            "<a href=\"#\(ConsoleSettingsForm.elementID($0))\">\(e($0.title))</a>"
        }.joined(separator: "\n")
        return ConsoleFormHTML.page(
            title: "Settings", current: current, csrf: console.csrf(current), section: .settings, main: """
                <h1>Settings</h1>
                \(notice)
                <p class="hint">The same settings as <code>assent admin tenant settings</code>, checked by the same rules.
                A change applies from the next request and is recorded in the <a href="\(PageRoute.consoleAudit.path)">audit
                log</a>. Push providers have <a href="\(PageRoute.consolePush.path)">their own page</a>.</p>
                <nav class="groups" aria-label="Setting groups">
                \(contents)
                </nav>
                <form method="post" action="\(PageRoute.consoleSettingsChange.path)" id="settings-form" class="settings grouped" novalidate>
                <input type="hidden" name="csrf" value="\(MarkupText.escape(console.csrf(current)))">
                \(groups)
                <button type="submit" id="save-settings">Save settings</button>
                </form>
                """)
    }
}
