import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The console's push providers page (`/admin/push`): the tenant's push settings as `GET /v1/tenant/push` shows them
/// (``PushSettingsEditor/view(_:)``), editable.
///
/// Credentials are write-only: the page says whether the APNs key and the FCM service account are configured and
/// offers an empty field to replace each, never their text (nor is a submitted one ever sent back). A post (same-site,
/// with the session's CSRF token) becomes a ``PushSettingsEditor/Change`` of the values that differ from the stored
/// ones, checked and applied by ``PushSettingsEditor`` as the server API's `PATCH /v1/tenant/push` is; a refused change
/// re-renders the form with the reason and changes nothing. A change is audited as `tenant.push_provider_changed`
/// with the session's principal.
struct ConsolePushPage: Sendable {
    let console: AdminConsole
    let tenants: TenantDirectory
    let editor: PushSettingsEditor

    /// The form's fields (element ids too).
    enum Field {
        static let provider = "provider", webhookURL = "pushWebhookURL", bestEffort = "webhookBestEffort"
        static let apnsKeyID = "apnsKeyId", apnsTeamID = "apnsTeamId", apnsTopic = "apnsTopic"
        static let apnsEnvironment = "apnsEnvironment", apnsKey = "apnsPrivateKey", removeAPNs = "removeApns"
        static let fcmServiceAccount = "fcmServiceAccount", removeFCM = "removeFcm"
    }

    func register(in router: inout Router) {
        router.add(.consolePush) { [self] request, _ in
            await console.page(request) { current in
                let notice: String = switch request.queryItem("saved") {
                case "1": ConsoleFormHTML.notice("Push settings saved. They apply from the next push.", isError: false)
                case "0": ConsoleFormHTML.notice("Nothing changed.", isError: false)
                default: ""
                }
                return AdminConsole.html(render(current, values: [:], notice: notice))
            }
        }
        router.add(.consolePushChange) { [self] request, _ in
            await console.post(request) { current in try await change(request, current) }
        }
    }

    private func change(_ request: HTTPRequest, _ current: ConsoleSessions.Current) async throws -> HTTPResponse {
        let form = ConsoleForm.fields(request.body)
        do {
            let change = try Self.change(form, from: current.tenant.settings)
            guard !change.isEmpty else { return AdminConsole.redirect(PageRoute.consolePush.path + "?saved=0") }
            try await editor.checkDestinations(of: change)
            _ = try await tenants.updateSettings(tenantID: current.tenant.id, actor: current.session.principal) {
                try editor.apply(change, to: &$0, tenantID: current.tenant.id)
            }
            return AdminConsole.redirect(PageRoute.consolePush.path + "?saved=1")
        } catch let error as AssentError where error.code == .invalidRequest {
            let notice = ConsoleFormHTML.notice("Nothing was saved: " + error.reason, isError: true)
            return AdminConsole.html(render(current, values: form, notice: notice), status: 400)
        }
    }

    /// The change a submitted form asks for: each value that differs from `settings`, a credential when one was
    /// pasted, a removal when ticked.
    static func change(_ form: [String: String], from settings: TenantSettings) throws -> PushSettingsEditor.Change {
        let push = settings.push ?? PushSettings()
        var change = PushSettingsEditor.Change()
        func text(_ name: String) -> String? {
            form[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        if let name = text(Field.provider) {
            guard let provider = PushSettings.Provider(rawValue: name) else {
                let names = PushSettings.Provider.allCases.map(\.rawValue).joined(separator: ", ")
                throw AssentError(.invalidRequest, "The provider must be one of \(names), got '\(name)'.")
            }
            if provider != push.provider { change.provider = provider }
        }
        if let url = text(Field.webhookURL) {
            let value: String? = url.isEmpty ? nil : url
            if value != push.webhookURL { change.webhookURL = .some(value) }
        }
        if let flag = text(Field.bestEffort) {
            let value = try TenantSettingRules.onOff(flag, "Best effort")
            if value != push.webhookBestEffort { change.webhookBestEffort = value }
        }
        if let value = text(Field.apnsKeyID), !value.isEmpty, value != push.apns?.keyID { change.apnsKeyID = value }
        if let value = text(Field.apnsTeamID), !value.isEmpty, value != push.apns?.teamID { change.apnsTeamID = value }
        if let value = text(Field.apnsTopic), !value.isEmpty, value != push.apns?.topic { change.apnsTopic = value }
        if let value = text(Field.apnsEnvironment), value != (push.apns?.environment ?? "production") {
            change.apnsEnvironment = value
        }
        // Browsers send a text area's lines with CRLF; a PEM reader wants LF.
        if let pem = text(Field.apnsKey), !pem.isEmpty { change.apnsKeyPEM = pem.replacingOccurrences(of: "\r\n", with: "\n") + "\n" }
        change.removeAPNs = form[Field.removeAPNs] == "on"
        if let json = text(Field.fcmServiceAccount), !json.isEmpty { change.fcmServiceAccountJSON = json }
        change.removeFCM = form[Field.removeFCM] == "on"
        return change
    }

    /// The page, with the non-secret `values` of a refused post over the stored ones.
    private func render(_ current: ConsoleSessions.Current, values: [String: String], notice: String) -> String {
        let settings = current.tenant.settings
        let push = settings.push ?? PushSettings()
        let view = PushSettingsEditor.view(settings)
        func value(_ name: String, _ stored: String) -> String { values[name] ?? stored }
        func field(
            _ name: String, _ label: String, _ effect: String, _ accepts: String?, _ kind: ConsoleFormHTML.Kind, _ stored: String
        ) -> String {
            ConsoleFormHTML.field(
                name: name, label: label, effect: effect, accepts: accepts, kind: kind, value: value(name, stored), error: nil)
        }
        func status(_ id: String, _ configured: Bool) -> String {
            "<p class=\"status\" id=\"\(id)\">" + (configured ? "configured" : "not configured") + "</p>"
        }
        let apns = view.apns, fcm = view.fcm
        let fcmFacts = fcm.configured
            ? "<dl class=\"facts\"><dt>Project</dt><dd id=\"fcm-project\">\(MarkupText.escape(fcm.projectId ?? ""))</dd>"
                + "<dt>Service account</dt><dd id=\"fcm-client-email\">\(MarkupText.escape(fcm.clientEmail ?? ""))</dd></dl>"
            : ""
        return ConsoleFormHTML.page(
            title: "Push providers", current: current, csrf: console.csrf(current), section: .push, main: """
                <h1>Push providers</h1>
                \(notice)
                <p class="hint">How push challenges reach devices, as <code>GET /v1/tenant/push</code> shows it. Keys and
                service accounts are write-only: this page says whether they are configured and never shows them; paste
                one to replace it. A change is recorded in the <a href="\(PageRoute.consoleAudit.path)">audit log</a>.</p>
                <form method="post" action="\(PageRoute.consolePushChange.path)" id="push-form" class="settings" novalidate>
                <input type="hidden" name="csrf" value="\(MarkupText.escape(console.csrf(current)))">
                \(field(Field.provider, "Provider", "Who delivers push challenges: apns or fcm for every device, default for APNs on iOS and FCM on the rest, webhook for your backend's push.created, none to let devices pull.", nil, .choice(PushSettings.Provider.allCases.map(\.rawValue)), push.provider.rawValue))
                <fieldset>
                <legend>Webhook</legend>
                \(field(Field.webhookURL, "Push webhook URL", "Where push.created is posted for the webhook provider; empty uses the tenant's webhook URL (\(settings.webhookURL ?? "none")).", "Accepts an http(s) URL, or empty.", .text(numeric: false), push.webhookURL ?? ""))
                \(field(Field.bestEffort, "Best effort", "When on, a failed push.created is only recorded; when off, it fails the challenge start.", nil, .choice(["on", "off"]), push.webhookBestEffort ? "on" : "off"))
                </fieldset>
                <fieldset>
                <legend>APNs</legend>
                \(status("apns-status", apns.configured))
                \(field(Field.apnsKeyID, "Key id", "The .p8 key's id (the token's kid).", nil, .text(numeric: false), apns.keyId ?? ""))
                \(field(Field.apnsTeamID, "Team id", "The Apple developer team's id (the token's iss).", nil, .text(numeric: false), apns.teamId ?? ""))
                \(field(Field.apnsTopic, "Topic", "The app's bundle id (apns-topic).", nil, .text(numeric: false), apns.topic ?? ""))
                \(field(Field.apnsEnvironment, "Environment", "Which APNs hosts notifications go to.", nil, .choice(["production", "sandbox"]), apns.environment ?? "production"))
                \(ConsoleFormHTML.field(name: Field.apnsKey, label: "Replace the APNs key", effect: "Paste a .p8 key (PKCS#8 PEM) to configure or replace it; leave empty to keep the stored one.", accepts: nil, kind: .secret(rows: 4), value: "", error: nil))
                \(ConsoleFormHTML.field(name: Field.removeAPNs, label: "Remove the APNs credentials", effect: "Forgets the key and its ids.", accepts: nil, kind: .checkbox, value: "", error: nil))
                </fieldset>
                <fieldset>
                <legend>FCM</legend>
                \(status("fcm-status", fcm.configured))
                \(fcmFacts)
                \(ConsoleFormHTML.field(name: Field.fcmServiceAccount, label: "Replace the FCM service account", effect: "Paste the service account's JSON file to configure or replace it; leave empty to keep the stored one.", accepts: nil, kind: .secret(rows: 4), value: "", error: nil))
                \(ConsoleFormHTML.field(name: Field.removeFCM, label: "Remove the FCM credentials", effect: "Forgets the service account.", accepts: nil, kind: .checkbox, value: "", error: nil))
                </fieldset>
                <button type="submit" id="save-push">Save push settings</button>
                </form>
                """)
    }
}
