import AssentCrypto
import AssentHTTP
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentTestSupport
import AssentWire
import Foundation
import Testing

/// The console's settings, push providers and audit log pages, in process over an SQLite store: what a form post
/// changes, what it refuses (and that it then changes nothing), what is recorded, and what is never shown.
@Suite struct ConsolePagesTests {
    static let masterKey = [UInt8](repeating: 0x42, count: 32)

    /// The console's routes over a fresh store with one tenant, signed in with its secret key.
    final class Console: Sendable {
        let directory: TemporaryDirectory
        let store: SQLiteStore
        let tenants: TenantDirectory
        let audit: AuditLog
        let router: Router
        let tenant: TenantDirectory.Credentials
        let cookie: String
        let csrf: String

        init() async throws {
            directory = try TemporaryDirectory()
            store = try SQLiteStore(path: directory.file("assent.sqlite"))
            let clock = WallClock.system
            tenants = TenantDirectory(store: store, clock: clock, masterKey: ConsolePagesTests.masterKey)
            audit = AuditLog(store: store, masterKey: ConsolePagesTests.masterKey, clock: clock)
            let logger = Logger(minimumLevel: .error, sink: { _ in })
            let sessions = ConsoleSessions(
                store: store, tenants: tenants, masterKey: ConsolePagesTests.masterKey,
                sink: AuditConsoleSignInSink(audit: audit, logger: logger), clock: clock)
            let console = AdminConsole(
                sessions: sessions,
                limits: RequestLimits(limiter: RateLimiter(policy: ServerConfiguration().rateLimits), trips: nil),
                publicURL: PublicURL("http://127.0.0.1:1"), servesTLS: false, logger: logger)
            let policy = OutboundURLPolicy(allowsPrivateAddresses: false)
            var router = Router()
            ConsolePages(
                console: console, tenants: tenants, audit: audit,
                history: SignInHistory(
                    store: store, webhooks: WebhookEvents(clock: clock, source: PublicURL("http://127.0.0.1:1")), clock: clock),
                push: try PushSettingsEditor(masterKey: ConsolePagesTests.masterKey, destinations: policy),
                destinations: policy
            ).register(in: &router)
            self.router = router
            tenant = try await tenants.create(name: "Pages")
            let signedIn = try #require(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "127.0.0.1"))
            cookie = "\(AdminConsole.cookieName)=\(signedIn.sessionID)"
            csrf = sessions.csrfToken(sessionID: signedIn.sessionID)
        }

        func send(
            _ method: String, _ path: String, query: String? = nil, form: [(String, String)] = [],
            headers: [(String, String)] = [("Origin", "http://127.0.0.1:1")]
        ) async -> HTTPResponse {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let body = form.map {
                "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }.joined(separator: "&")
            let request = HTTPRequest(
                method: method, path: path, rawQuery: query,
                headers: HTTPHeaders([("Host", "127.0.0.1:1"), ("Cookie", cookie)] + headers), body: Array(body.utf8))
            guard case .found(let handler, let parameters, _) = router.match(method: method, path: path) else {
                return HTTPResponse(status: 404)
            }
            return await handler(request, parameters)
        }

        func settings() async throws -> TenantSettings {
            try #require(try await store.tenant(id: tenant.tenant.id)).settings
        }
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// A fresh APNs-style `.p8` key (PKCS#8 PEM, P-256) made by openssl.
    static func apnsKeyPEM() async throws -> String {
        let result = try await ProcessRunner.run(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], timeout: 60)
        guard result.status == 0 else { throw TestFailure("openssl genpkey exited \(result.status): \(result.stderr)") }
        return result.stdout
    }

    @Test func `a valid settings post changes the settings and records the principal and the changed names`() async throws {
        let console = try await Console()
        let response = await console.send("POST", "/admin/settings", form: [
            ("csrf", console.csrf), ("unenrolledState", "block"), ("challengeTimeoutSeconds", "300"),
            ("actionRules", "payment:REVIEW_REQUIRED:BLOCK\r\nsignIn::"), ("tokenLifetimeSeconds", ""),
        ])
        #expect(response.status == 303)
        #expect(response.headers["Location"] == "/admin/settings?saved=1")
        let settings = try await console.settings()
        #expect(settings.unenrolledState == .block && settings.challengeTimeoutSeconds == 300)
        #expect(settings.actionRules == ["payment": .init(enrolled: .reviewRequired, unenrolled: .block)])
        #expect(settings.maxPendingPushChallenges == 3, "a field not posted keeps its value")

        let entries = try await console.audit.entries(AuditQuery(tenantID: console.tenant.tenant.id, kind: .settingsChanged))
        #expect(entries.count == 1)
        #expect(entries.first?.actor == "secret-key")
        #expect(entries.first?.details == ["changed": "actionRules,challengeTimeoutSeconds,unenrolledState"])

        let page = Self.text(await console.send("GET", "/admin/settings", query: "saved=1"))
        #expect(page.contains("Settings saved"))
        #expect(page.contains("<option selected>BLOCK</option>"))
        #expect(page.contains("payment:REVIEW_REQUIRED:BLOCK"))
    }

    @Test func `a bad value re-renders the form with each error beside its field and changes nothing`() async throws {
        let console = try await Console()
        let before = try await console.settings()
        let response = await console.send("POST", "/admin/settings", form: [
            ("csrf", console.csrf), ("unenrolledState", "BLOCK"), ("challengeTimeoutSeconds", "5"),
            ("pushThrottleSeconds", "<script>"), ("webhookURL", "ftp://example.com"),
        ])
        #expect(response.status == 400)
        let page = Self.text(response)
        // In the page's order: the actions group, then webhooks, then limits.
        #expect(page.contains("Nothing was saved; not valid: <a href=\"#challengeTimeoutSeconds\">Challenge timeout</a>, "
            + "<a href=\"#webhookURL\">Webhook URL</a>, <a href=\"#pushThrottleSeconds\">Push throttle</a>."))
        #expect(page.contains("id=\"challengeTimeoutSeconds-error\""))
        #expect(page.contains("Challenge timeout must be a whole number from 10 to 600, got &#39;5&#39;"))
        #expect(page.contains("id=\"pushThrottleSeconds-error\""))
        #expect(page.contains("id=\"webhookURL-error\""))
        #expect(!page.contains("<script>"), "a submitted value is escaped")
        #expect(try await console.settings() == before)
        #expect(try await console.audit.entries(AuditQuery(tenantID: console.tenant.tenant.id, kind: .settingsChanged)).isEmpty)
    }

    @Test func `a webhook URL leading to a private address is refused by the server's policy`() async throws {
        let console = try await Console()
        let response = await console.send("POST", "/admin/settings", form: [
            ("csrf", console.csrf), ("webhookURL", "http://127.0.0.1:9/hook"),
        ])
        #expect(Self.text(response).contains("id=\"webhookURL-error\""))
        #expect(try await console.settings().webhookURL == nil)
    }

    @Test func `posts without the CSRF token or from another site are refused and change nothing`() async throws {
        let console = try await Console()
        let before = try await console.settings()
        for path in ["/admin/settings", "/admin/push"] {
            let cases: [([(String, String)], [(String, String)])] = [
                ([("unenrolledState", "BLOCK"), ("provider", "none")], [("Origin", "http://127.0.0.1:1")]),
                ([("csrf", "forged"), ("unenrolledState", "BLOCK")], [("Origin", "http://127.0.0.1:1")]),
                ([("csrf", console.csrf), ("unenrolledState", "BLOCK")], [("Origin", "http://attacker.example")]),
                ([("csrf", console.csrf), ("unenrolledState", "BLOCK")], [("Sec-Fetch-Site", "cross-site")]),
            ]
            for (form, headers) in cases {
                let response = await console.send("POST", path, form: form, headers: headers)
                #expect(response.status == 403, "\(path) \(headers)")
                #expect(Self.text(response).contains("\"errorCode\":\"cross_site_request\""))
            }
        }
        #expect(try await console.settings() == before)
    }

    /// An origin is scheme, host and port: a page served over https from this host and port (or over http from
    /// another port) is another origin, whatever `SameSite` thinks of it.
    @Test func `posts from this host under another scheme or port are refused; this origin is accepted`() async throws {
        let console = try await Console()
        let before = try await console.settings()
        for origin in ["https://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1", "ftp://127.0.0.1:1", "http://127.0.0.1:1/"] {
            let response = await console.send(
                "POST", "/admin/settings", form: [("csrf", console.csrf), ("unenrolledState", "BLOCK")],
                headers: [("Origin", origin)])
            #expect(response.status == 403, "\(origin)")
            #expect(Self.text(response).contains("\"errorCode\":\"cross_site_request\""))
        }
        #expect(try await console.settings() == before)
        let accepted = await console.send(
            "POST", "/admin/settings", form: [("csrf", console.csrf), ("unenrolledState", "BLOCK")],
            headers: [("Origin", "http://127.0.0.1:1")])
        #expect(accepted.status == 303)
        #expect(try await console.settings().unenrolledState == .block)
    }

    @Test func `push credentials are accepted write-only and never shown`() async throws {
        let console = try await Console()
        let pem = try await Self.apnsKeyPEM()
        let response = await console.send("POST", "/admin/push", form: [
            ("csrf", console.csrf), ("provider", "apns"), ("apnsKeyId", "KEY1"), ("apnsTeamId", "TEAM1"),
            ("apnsTopic", "com.example.app"), ("apnsEnvironment", "sandbox"),
            ("apnsPrivateKey", pem.replacingOccurrences(of: "\n", with: "\r\n")), ("webhookBestEffort", "off"),
        ])
        #expect(response.status == 303 && response.headers["Location"] == "/admin/push?saved=1")
        let push = try #require(try await console.settings().push)
        #expect(push.provider == .apns && push.apns?.keyID == "KEY1" && push.apns?.environment == "sandbox")

        let page = Self.text(await console.send("GET", "/admin/push"))
        #expect(page.contains("<p class=\"status\" id=\"apns-status\">configured</p>"))
        #expect(page.contains("<p class=\"status\" id=\"fcm-status\">not configured</p>"))
        let keyLine = pem.split(separator: "\n")[1]
        #expect(!page.contains(keyLine) && !page.contains("PRIVATE KEY"))
        #expect(!page.contains(push.apns?.sealedKey ?? "-"), "not even sealed")

        let entries = try await console.audit.entries(AuditQuery(tenantID: console.tenant.tenant.id, kind: .pushProviderChanged))
        #expect(entries.map(\.actor) == ["secret-key"] && entries.first?.details["provider"] == "apns")

        let refused = await console.send("POST", "/admin/push", form: [
            ("csrf", console.csrf), ("apnsPrivateKey", "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----"),
        ])
        #expect(refused.status == 400)
        #expect(Self.text(refused).contains("PKCS#8 P-256") && !Self.text(refused).contains("not a key"))
        #expect(try await console.settings().push == push, "a refused change changes nothing")
    }

    @Test func `a push form asks only for the values that differ from the stored ones`() throws {
        var settings = TenantSettings()
        settings.push = PushSettings()
        settings.push?.apns = PushSettings.APNs(keyID: "K", teamID: "T", topic: "com.x", environment: "production", sealedKey: "s")
        let same = try ConsolePushPage.change([
            "provider": "none", "pushWebhookURL": "", "webhookBestEffort": "off", "apnsKeyId": "K", "apnsTeamId": "T",
            "apnsTopic": "com.x", "apnsEnvironment": "production", "apnsPrivateKey": "", "fcmServiceAccount": "",
        ], from: settings)
        #expect(same.isEmpty)
        let changed = try ConsolePushPage.change(["apnsTopic": "com.y", "removeFcm": "on", "pushWebhookURL": "https://h/x"], from: settings)
        #expect(changed.apnsTopic == "com.y" && changed.removeFCM && changed.webhookURL == .some("https://h/x"))
        #expect(changed.apnsKeyID == nil && changed.apnsKeyPEM == nil)
        #expect(throws: AssentError(.invalidRequest, "")) { try ConsolePushPage.change(["provider": "carrier-pigeon"], from: settings) }
    }

    @Test func `the audit page lists newest first, filters by kind, principal and time, and verifies on request`() async throws {
        let console = try await Console()
        _ = await console.send("POST", "/admin/settings", form: [("csrf", console.csrf), ("fraudLockSeconds", "60")])
        let all = Self.text(await console.send("GET", "/admin/audit"))
        let signIn = try #require(all.range(of: "data-kind=\"console.sign_in\""))
        let change = try #require(all.range(of: "data-kind=\"tenant.settings_changed\""))
        let created = try #require(all.range(of: "data-kind=\"tenant.created\""))
        #expect(change.lowerBound < signIn.lowerBound && signIn.lowerBound < created.lowerBound, "newest first")
        #expect(all.contains("changed=fraudLockSeconds"))

        let changes = Self.text(await console.send("GET", "/admin/audit", query: "kind=tenant.settings_changed"))
        #expect(changes.contains("tenant.settings_changed") && !changes.contains("data-kind=\"console.sign_in\""))
        let byCLI = Self.text(await console.send("GET", "/admin/audit", query: "actor=cli"))
        #expect(byCLI.contains("data-kind=\"tenant.created\"") && !byCLI.contains("data-kind=\"console.sign_in\""))
        let past = Self.text(await console.send("GET", "/admin/audit", query: "until=2001-01-01T00%3A00"))
        #expect(past.contains("id=\"no-entries\""))
        let bad = Self.text(await console.send("GET", "/admin/audit", query: "since=soon"))
        #expect(bad.contains("id=\"since-error\"") && bad.contains("id=\"no-entries\""))
        let verified = Self.text(await console.send("GET", "/admin/audit", query: "verify=1"))
        #expect(verified.contains("The chain verifies: 3 entries"))
    }

    @Test func `the audit page pages back with the last sequence shown`() async throws {
        let console = try await Console()
        for i in 0..<(ConsoleAuditPage.pageSize + 5) {
            try await console.audit.record(tenantID: console.tenant.tenant.id, .credentialEnrolled, actor: "secret-key",
                                           subject: "auth-\(i)")
        }
        let first = Self.text(await console.send("GET", "/admin/audit", query: "kind=credential.enrolled"))
        let link = try #require(first.range(of: "before=[0-9]+", options: .regularExpression))
        #expect(first.components(separatedBy: "<tr data-kind").count - 1 == ConsoleAuditPage.pageSize)
        let cursor = String(first[link].dropFirst("before=".count))
        let second = Self.text(await console.send("GET", "/admin/audit", query: "kind=credential.enrolled&before=\(cursor)"))
        #expect(second.components(separatedBy: "<tr data-kind").count - 1 == 5)
        #expect(!second.contains("id=\"older-page\"") && second.contains("id=\"newest-page\""))
    }

    @Test func `the settings are grouped and durations are said in units`() async throws {
        let console = try await Console()
        _ = await console.send("POST", "/admin/settings", form: [("csrf", console.csrf), ("fraudLockSeconds", "5400")])
        let page = Self.text(await console.send("GET", "/admin/settings"))
        var seen = page.startIndex
        for legend in ["Actions and challenges", "Push", "QR codes", "PowerAuth", "Webhooks", "Limits"] {
            let found = try #require(page.range(of: "<legend>\(legend)</legend>", range: seen..<page.endIndex), "\(legend)")
            seen = found.upperBound
        }
        #expect(Set(TenantSettings.table.map(\.name)).count == TenantSettings.table.count)
        #expect(page.contains("Accepts a number of seconds, from 1 minute to 10 years, or empty."))
        #expect(page.contains("Accepts a number of seconds, from 0 seconds to 30 days. Now 1 hour 30 minutes."))
        #expect(page.contains("value=\"5400\""), "the control keeps seconds")
        #expect(!page.contains("315360000") && !page.contains("2592000"))
        #expect(TenantSettingRules.duration(315_360_000) == "10 years")
        #expect(TenantSettingRules.duration(90_061) == "1 day 1 hour 1 minute 1 second")
        #expect(TenantSettingRules.duration(0) == "0 seconds")
    }

    @Test func `an unknown console path is a console page for a browser and the JSON 404 for anything else`() async throws {
        let console = try await Console()
        let html = await console.send("GET", "/admin/nothing/here", headers: [("Accept", "text/html,*/*;q=0.8")])
        #expect(html.status == 404 && html.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(Self.text(html).contains("<h1>Page not found</h1>") && Self.text(html).contains("id=\"sign-out\""))
        for (path, accept) in [("/admin/nothing", "application/json"), ("/admin/api/nothing", "text/html"), ("/admin/x", "*/*")] {
            let json = await console.send("GET", path, headers: [("Accept", accept)])
            #expect(json.status == 404 && Self.text(json).contains("\"errorCode\":\"not_found\""), "\(path)")
        }
        guard case .notFound = console.router.match(method: "GET", path: "/v1/nothing") else {
            Issue.record("the console's fallback answers only under /admin/")
            return
        }
    }

    @Test func `without a session the pages send the browser to sign in`() async throws {
        let console = try await Console()
        for path in ["/admin/settings", "/admin/push", "/admin/audit"] {
            var request = HTTPRequest(method: "GET", path: path)
            request.headers = HTTPHeaders([("Host", "127.0.0.1:1")])
            guard case .found(let handler, let parameters, _) = console.router.match(method: "GET", path: path) else {
                Issue.record("\(path) not routed")
                continue
            }
            let response = await handler(request, parameters)
            #expect(response.status == 303 && response.headers["Location"] == "/admin/")
        }
    }

    @Test func `--admin-listen is read, must differ from the other listeners, and is in the help`() throws {
        let flags = try ServerConfiguration.parse(arguments: ["--admin-listen", "127.0.0.1:8421"], environment: [:])
        #expect(flags.adminHost == "127.0.0.1" && flags.adminPort == 8421)
        let environment = try ServerConfiguration.parse(arguments: [], environment: ["ASSENT_ADMIN_LISTEN": "[::1]:0"])
        #expect(environment.adminHost == "::1" && environment.adminPort == 0)
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(arguments: ["--listen", "127.0.0.1:8420", "--admin-listen", "127.0.0.1:8420"], environment: [:])
        }
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(
                arguments: ["--metrics-listen", "127.0.0.1:9420", "--admin-listen", "127.0.0.1:9420"], environment: [:])
        }
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(arguments: ["--admin-listen", "nowhere"], environment: [:])
        }
        #expect(ServerConfiguration.options.contains { $0.0.hasPrefix("--admin-listen") })
    }
}
