/// The routes `assentd` serves that are pages, not API: the admin console (HTML pages, its forms and the JSON its
/// pages poll, behind a session cookie) and the demo pages. Spelled once, like ``Endpoint``: the server registers them
/// from here and the console builds its links and form actions with ``path(_:)``. Server-side only, so `package`.
package enum PageRoute: String, CaseIterable, Sendable, CustomStringConvertible {
    // MARK: Admin console (HTML pages and forms; a session cookie after sign-in)

    /// Redirects to ``consoleHome``.
    case consoleRedirect = "GET /admin"
    /// The sign-in page, or the signed-in tenant's overview.
    case consoleHome = "GET /admin/"
    /// Signs in with the tenant's secret key or an admin token (a form post).
    case consoleSignIn = "POST /admin/sign-in"
    /// Ends the session (a form post with its CSRF token).
    case consoleSignOut = "POST /admin/sign-out"
    /// The signed-in tenant's overview as JSON: live totals and per-minute challenge counts over the last hour.
    case consoleOverview = "GET /admin/api/overview"
    /// The users page: users whose id starts with `?q=`, a page at a time (`?after=` the last id shown).
    case consoleUsers = "GET /admin/users"
    /// One user's page: authenticators, PowerAuth activations, recent challenges, and the forms that change them.
    case consoleUser = "GET /admin/users/{userId}"
    /// The user page's recent challenges as JSON (session cookie; `401` envelope without), which the page polls.
    case consoleUserData = "GET /admin/api/users/{userId}"
    /// Everything Assent holds about the user as a JSON download (a form post with the CSRF token: it is recorded as
    /// `user.exported`).
    case consoleExportUser = "POST /admin/users/{userId}/export"
    /// Deletes the user (a form post with the CSRF token; answered with a confirmation page until `confirm=yes`).
    case consoleDeleteUser = "POST /admin/users/{userId}/delete"
    /// Removes one of the user's authenticators (a form post, confirmed like ``consoleDeleteUser``).
    case consoleRemoveAuthenticator = "POST /admin/users/{userId}/authenticators/{authenticatorId}/remove"
    /// Blocks, unblocks or removes one of the user's activations (`{change}`: `block`, `unblock`, `remove`; a form
    /// post, confirmed like ``consoleDeleteUser``).
    case consoleChangeActivation = "POST /admin/users/{userId}/activations/{activationId}/{change}"
    /// One challenge of the signed-in tenant: its state, times and timeline with deliveries.
    case consoleChallenge = "GET /admin/challenges/{challengeId}"
    /// Every tenant setting as a form, with its current value and effect.
    case consoleSettings = "GET /admin/settings"
    /// Changes tenant settings (a form post with its CSRF token); all checked before anything changes.
    case consoleSettingsChange = "POST /admin/settings"
    /// The tenant's push provider settings; credentials only as configured or not.
    case consolePush = "GET /admin/push"
    /// Changes the push provider settings, replacing credentials (a form post with its CSRF token).
    case consolePushChange = "POST /admin/push"
    /// The tenant's audit log, newest first, filtered by kind, time and principal.
    case consoleAudit = "GET /admin/audit"
    /// The tenant's authentication history, newest first, filtered as `GET /v1/sign-ins` filters it (and its
    /// CSV and JSON-lines downloads).
    case consoleSignIns = "GET /admin/sign-ins"

    // MARK: Demo pages

    case home = "GET /"
    case webRedirect = "GET /web"
    case webIndex = "GET /web/"
    case webFile = "GET /web/{file}"
    /// The page a track answer's `url` opens (`?token=`).
    case challengePage = "GET /challenge"

    /// The HTTP method, e.g. `POST`.
    package var method: String { RouteTemplate(rawValue).method }

    /// The path template, e.g. `/admin/users/{userId}`.
    package var path: String { RouteTemplate(rawValue).path }

    /// The path with its `{name}` segments replaced by `values`, in order, as given (the caller percent-encodes them).
    package func path(_ values: [String]) -> String { RouteTemplate(rawValue).path(values) }

    /// `METHOD /path`.
    package var description: String { rawValue }
}
