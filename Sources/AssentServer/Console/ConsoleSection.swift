import AssentWire

/// The console's sections, in the order its navigation lists them: every signed-in page belongs to one, which
/// the header marks as current (`aria-current="page"`).
enum ConsoleSection: CaseIterable, Sendable {
    case overview, users, signIns, settings, push, audit

    /// The section's page.
    var path: String {
        switch self {
        case .overview: PageRoute.consoleHome.path
        case .users: PageRoute.consoleUsers.path
        case .signIns: PageRoute.consoleSignIns.path
        case .settings: PageRoute.consoleSettings.path
        case .push: PageRoute.consolePush.path
        case .audit: PageRoute.consoleAudit.path
        }
    }

    /// The section's name in the navigation.
    var title: String {
        switch self {
        case .overview: "Overview"
        case .users: "Users"
        case .signIns: "Sign-ins"
        case .settings: "Settings"
        case .push: "Push providers"
        case .audit: "Audit log"
        }
    }

    /// The navigation link's element id (`nav-overview`, …), for tests.
    var elementID: String {
        switch self {
        case .overview: "nav-overview"
        case .users: "nav-users"
        case .signIns: "nav-sign-ins"
        case .settings: "nav-settings"
        case .push: "nav-push"
        case .audit: "nav-audit"
        }
    }
}
