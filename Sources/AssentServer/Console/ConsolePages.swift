import AssentHTTP
import AssentServerCore

/// Every route of the admin console: sign-in, sign-out and the overview (``AdminConsole``), and the settings, push
/// providers, audit log and sign-ins pages. Registered on the API listener, or on the admin listener alone with
/// `--admin-listen`.
struct ConsolePages: Sendable {
    let console: AdminConsole
    let tenants: TenantDirectory
    let audit: AuditLog
    let history: SignInHistory
    let push: PushSettingsEditor
    /// Where URLs a tenant gives may lead (``ServerConfiguration/allowPrivateURLs``).
    let destinations: OutboundURLPolicy

    func register(in router: inout Router) {
        console.register(in: &router)
        ConsoleSettingsPage(console: console, tenants: tenants, destinations: destinations).register(in: &router)
        ConsolePushPage(console: console, tenants: tenants, editor: push).register(in: &router)
        ConsoleAuditPage(console: console, audit: audit).register(in: &router)
        ConsoleSignInsPage(console: console, history: history).register(in: &router)
    }
}
