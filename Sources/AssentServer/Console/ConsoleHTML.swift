import AssentLog
import AssentServerCore
import AssentWire

/// The console's pages, written as HTML text on the server: no template engine, every value escaped with
/// ``MarkupText/escape(_:)`` (the one escaping the QR code's SVG uses too). Styles and scripts come from the web root
/// (`/web/console.css`), which the pages' `Content-Security-Policy` allows.
enum ConsoleHTML {
    /// A whole page: `title` (escaped) around `body` (already HTML).
    static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(MarkupText.escape(title)) · Assent console</title>
        <link rel="stylesheet" href="/web/console.css">
        <link rel="icon" href="/web/icon.svg">
        </head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    /// A signed-in page: the bar (``header(tenant:csrf:current:)``) naming `current`'s tenant with `section` marked
    /// (none for a page of no section), then `body`.
    static func signedInPage(
        title: String, current: ConsoleSessions.Current, csrf: String, section: ConsoleSection?, body: String
    ) -> String {
        page(title: title, body: header(tenant: current.tenant.name, csrf: csrf, current: section) + body)
    }

    /// The sign-in page, with a notice when the last attempt failed.
    static func signIn(notice: String?) -> String {
        let message = notice.map { "<p class=\"notice\" id=\"notice\" role=\"alert\">\(MarkupText.escape($0))</p>" } ?? ""
        return page(title: "Sign in", body: """
            <main class="narrow">
            <h1>Assent console</h1>
            \(message)
            <form method="post" action="\(PageRoute.consoleSignIn.path)" id="sign-in">
            <label for="credential">Tenant secret key or admin token</label>
            <input type="password" id="credential" name="credential" autocomplete="current-password" required maxlength="512">
            <button type="submit" id="sign-in-button">Sign in</button>
            </form>
            <p class="hint">An admin token comes from <code>assent admin token create --tenant ID</code>; it signs in to that
            tenant only, until it expires or is revoked.</p>
            </main>
            """)
    }

    /// The page for a console path that does not exist (status 404): the bar and the sections when signed in
    /// (`signedIn`), else a way to sign in.
    static func notFound(path: String, signedIn: (current: ConsoleSessions.Current, csrf: String)?) -> String {
        let main = """
            <main>
            <h1>Page not found</h1>
            <p id="not-found">The console has no page <code>\(MarkupText.escape(path))</code>.</p>
            <p><a href="\(PageRoute.consoleHome.path)" id="console-home">\(signedIn == nil ? "Sign in to the console" : "Go to the overview")</a></p>
            </main>
            """
        guard let signedIn else { return page(title: "Page not found", body: main) }
        return signedInPage(title: "Page not found", current: signedIn.current, csrf: signedIn.csrf, section: nil, body: main)
    }

    /// The header of every signed-in page: the tenant, the sections' navigation with `current` marked, and a
    /// sign-out form carrying the CSRF token.
    static func header(tenant: String, csrf: String, current: ConsoleSection?) -> String {
        let links = ConsoleSection.allCases.map { section in
            let marked = section == current ? " aria-current=\"page\"" : ""
            return "<a href=\"\(section.path)\" id=\"\(section.elementID)\"\(marked)>\(MarkupText.escape(section.title))</a>"
        }.joined(separator: "\n")
        return """
            <header class="bar">
            <span class="brand">Assent console</span>
            <span class="tenant" id="tenant-name">\(MarkupText.escape(tenant))</span>
            <form method="post" action="\(PageRoute.consoleSignOut.path)" class="inline">
            <input type="hidden" name="csrf" value="\(MarkupText.escape(csrf))">
            <button type="submit" id="sign-out">Sign out</button>
            </form>
            <nav aria-label="Console sections">
            \(links)
            </nav>
            </header>
            """
    }
}
