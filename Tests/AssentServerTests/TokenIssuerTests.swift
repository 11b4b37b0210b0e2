@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentHTTP
import AssentLog
import AssentTestSupport
import AssentWire
import Synchronization
import Testing

@Suite struct TokenIssuerTests {
    let clock = ServerTestClock()
    let tenant = Tenant(id: "tenant-a", name: "A", secretHash: [], secretVersion: 1, keyVersion: 1, settings: TenantSettings(), createdAt: 0)
    let action = Action(tenantID: "tenant-a", userID: "u", actionCode: "signIn", idempotencyKey: "k",
                        state: .challengeRequired, now: 0)

    var issuer: TokenIssuer { TokenIssuer(masterKey: Array(repeating: 7, count: 32), clock: clock.wallClock) }

    @Test func `a token carries its tenant, user, action, key and scope`() throws {
        let token = try issuer.issue(kind: .track, tenant: tenant, action: action, scope: "add:authenticators", lifetime: 600)
        let claims = try issuer.verify(token, tenant: tenant)
        #expect(claims.tid == "tenant-a" && claims.sub == "u" && claims.act == "signIn" && claims.idk == "k")
        #expect(claims.hasScope("add:authenticators") && !claims.hasScope("read:authenticators"))
        #expect(claims.exp - claims.iat == 600)
        #expect(TokenIssuer.claimedTenantID(of: token) == "tenant-a")
    }

    @Test func `a token expires after its lifetime`() throws {
        let token = try issuer.issue(kind: .track, tenant: tenant, action: action, scope: nil, lifetime: 600)
        clock.advance(seconds: 599)
        _ = try issuer.verify(token, tenant: tenant)
        clock.advance(seconds: 2)
        #expect(throws: AssentError(.expiredToken, "")) { try issuer.verify(token, tenant: tenant) }
    }

    @Test func `another tenant, a bumped key version or another master key refuse the token`() throws {
        let token = try issuer.issue(kind: .track, tenant: tenant, action: action, scope: nil, lifetime: 600)
        var other = tenant
        other.id = "tenant-b"
        #expect(throws: AssentError(.invalidToken, "")) { try issuer.verify(token, tenant: other) }
        var bumped = tenant
        bumped.keyVersion = 2
        #expect(throws: AssentError(.invalidToken, "")) { try issuer.verify(token, tenant: bumped) }
        let stranger = TokenIssuer(masterKey: Array(repeating: 8, count: 32), clock: clock.wallClock)
        #expect(throws: AssentError(.invalidToken, "")) { try stranger.verify(token, tenant: tenant) }
    }

    @Test func `a tampered token is refused`() throws {
        let token = try issuer.issue(kind: .track, tenant: tenant, action: action, scope: nil, lifetime: 600)
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = String(parts[1].reversed())
        #expect(throws: AssentError(.invalidToken, "")) { try issuer.verify(parts.joined(separator: "."), tenant: tenant) }
        #expect(throws: AssentError(.invalidToken, "")) { try issuer.verify("not-a-token", tenant: tenant) }
    }
}

@Suite struct TenantSettingsTests {
    @Test func `enrolled users are challenged, others get the tenant's choice, action rules override both`() {
        var settings = TenantSettings()
        #expect(settings.state(forAction: "signIn", isEnrolled: true) == .challengeRequired)
        #expect(settings.state(forAction: "signIn", isEnrolled: false) == .allow)
        settings.unenrolledState = .block
        settings.actionRules["viewBalance"] = .init(enrolled: .allow)
        #expect(settings.state(forAction: "signIn", isEnrolled: false) == .block)
        #expect(settings.state(forAction: "viewBalance", isEnrolled: true) == .allow)
        #expect(settings.state(forAction: "viewBalance", isEnrolled: false) == .block)
    }
}

@Suite struct ServerConfigurationTests {
    @Test func `flags override environment variables`() throws {
        let config = try ServerConfiguration.parse(
            arguments: ["--listen", "127.0.0.1:9000", "--token-lifetime=120"],
            environment: ["ASSENT_LISTEN": "0.0.0.0:1", "ASSENT_DATABASE": "/tmp/x.sqlite", "ASSENT_LOG_LEVEL": "debug"])
        #expect(config.host == "127.0.0.1" && config.port == 9000)
        #expect(config.tokenLifetimeSeconds == 120 && config.database == "/tmp/x.sqlite" && config.logLevel == "debug")
    }

    @Test func `rate limits are on by default, tuned per rule, and trusted proxies add up over flags`() throws {
        let defaults = try ServerConfiguration.parse(arguments: [], environment: [:])
        #expect(defaults.rateLimits.enabled && defaults.rateLimits.overrides.isEmpty)
        #expect(defaults.trustedProxies.networks.isEmpty)
        let config = try ServerConfiguration.parse(
            arguments: ["--rate-limit", "claim-key=5/1m", "--rate-limit=websocket-address=2/1s,vault-unlock-address=1/1h",
                        "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "127.0.0.1,::1"],
            environment: ["ASSENT_RATE_LIMITS": "off", "ASSENT_TRUSTED_PROXY": "192.0.2.0/24"])
        #expect(!config.rateLimits.enabled)
        #expect(config.rateLimits.limit(.claimKey) == RateLimit(count: 5, periodSeconds: 60))
        #expect(config.rateLimits.limit(.webSocketAddress) == RateLimit(count: 2, periodSeconds: 1))
        #expect(config.rateLimits.limit(.vaultUnlockAddress) == RateLimit(count: 1, periodSeconds: 3600))
        #expect(config.trustedProxies.networks.map(\.description) == ["10.0.0.0/8", "127.0.0.1/32", "::1/128"])
        let fromEnvironment = try ServerConfiguration.parse(
            arguments: ["--rate-limits", "on"], environment: ["ASSENT_RATE_LIMITS": "off", "ASSENT_TRUSTED_PROXY": "192.0.2.0/24"])
        #expect(fromEnvironment.rateLimits.enabled)
        #expect(fromEnvironment.trustedProxies.networks.map(\.description) == ["192.0.2.0/24"])
    }

    @Test func `the Android status list has no default and is read from a URL or a file, hourly unless a test says otherwise`() throws {
        let defaults = try ServerConfiguration.parse(arguments: [], environment: [:])
        #expect(defaults.androidAttestationStatusURL == nil && defaults.androidAttestationStatusFile == nil)
        #expect(defaults.androidAttestationStatusRefreshSeconds == 3600)
        let fromEnvironment = try ServerConfiguration.parse(
            arguments: [], environment: ["ASSENT_ANDROID_ATTESTATION_STATUS_URL": "https://status.example/attestation/status"])
        #expect(fromEnvironment.androidAttestationStatusURL == "https://status.example/attestation/status")
        let file = try ServerConfiguration.parse(
            arguments: ["--android-attestation-status-file", "/var/lib/assent/status.json",
                        "--android-attestation-status-refresh", "2"], environment: [:])
        #expect(file.androidAttestationStatusFile == "/var/lib/assent/status.json" && file.androidAttestationStatusURL == nil)
        #expect(file.androidAttestationStatusRefreshSeconds == 2)
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(arguments: ["--android-attestation-status-url", "file:///etc/passwd"], environment: [:])
        }
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(arguments: ["--android-attestation-status-refresh", "0"], environment: [:])
        }
        // The refresh is for tests: not in --help.
        #expect(!ServerConfiguration.options.contains { $0.flag.contains("status-refresh") })
        #expect(ServerConfiguration.options.contains { $0.flag.hasPrefix("--android-attestation-status-url ") })
    }

    @Test func `a PostgreSQL URL selects PostgreSQL and needs the shared master key named`() throws {
        let url = "postgres://assent:secret@db.example:5432/assent"
        let config = try ServerConfiguration.parse(
            arguments: ["--database-connections", "12"],
            environment: ["ASSENT_DATABASE_URL": url, "ASSENT_MASTER_KEY_FILE": "/etc/assent/master.key"])
        #expect(config.databaseLocation == .postgres(url: url))
        #expect(config.databaseLocation.redacted == "postgres://assent:***@db.example:5432/assent")
        #expect(config.resolvedDatabaseConnections == 12 && config.masterKeyFile == "/etc/assent/master.key")
        #expect(DatabaseLocation("sqlite:/var/lib/assent/a.sqlite").defaultMasterKeyFile == "/var/lib/assent/master.key")
        #expect(config.databaseLocation.defaultMasterKeyFile == nil)
        let flag = try ServerConfiguration.parse(arguments: ["--database-url", url, "--threads", "3"],
                                                 environment: ["ASSENT_MASTER_KEY": "x"])
        #expect(flag.databaseLocation.isShared && flag.resolvedDatabaseConnections == 24)
        #expect(try ServerConfiguration.parse(arguments: ["--database", "sqlite:/tmp/a.sqlite"], environment: [:])
            .databaseLocation == .sqlite(path: "/tmp/a.sqlite"))
        var unnamed = ServerConfiguration()
        unnamed.database = url
        #expect(throws: ServerConfiguration.Invalid.self) { _ = try unnamed.loadMasterKey() }
    }

    @Test func `the development tenant is created only when asked, never on PostgreSQL`() throws {
        #expect(try !ServerConfiguration.parse(arguments: [], environment: [:]).createDevelopmentTenant)
        #expect(try !ServerConfiguration.parse(arguments: ["--no-dev-tenant"], environment: [:]).createDevelopmentTenant)
        #expect(try ServerConfiguration.parse(arguments: ["--dev"], environment: [:]).createDevelopmentTenant)
        #expect(try ServerConfiguration.parse(arguments: [], environment: ["ASSENT_DEV": "1"]).createDevelopmentTenant)
        #expect(try ServerConfiguration.parse(arguments: ["--dev", "--no-dev-tenant"], environment: [:]).createDevelopmentTenant)
        let postgres = ["ASSENT_DATABASE_URL": "postgres://localhost/assent", "ASSENT_MASTER_KEY": "x"]
        #expect(try !ServerConfiguration.parse(arguments: [], environment: postgres).createDevelopmentTenant)
        #expect(throws: ServerConfiguration.Invalid.self) { try ServerConfiguration.parse(arguments: ["--dev"], environment: postgres) }
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(arguments: [], environment: postgres.merging(["ASSENT_DEV": "true"]) { $1 })
        }
    }

    @Test(arguments: [
        ["--listen", "nonsense"], ["--listen", "127.0.0.1:70000"], ["--token-lifetime", "5"], ["--log-level", "loud"],
        ["--threads", "zero"], ["--bogus"], ["--database"], ["--public-url", "ftp://x"],
        ["--database", "postgres://localhost/assent"], ["--database-url", "/tmp/not-a-url.sqlite"],
        ["--rate-limits", "maybe"], ["--rate-limit", "claim-key=0/1m"], ["--rate-limit", "nope=1/1s"],
        ["--trusted-proxy", "10.0.0.0/40"], ["--trusted-proxy", "lb.example"],
    ])
    func `invalid options are refused with a message naming the option`(arguments: [String]) {
        #expect(throws: ServerConfiguration.Invalid.self) {
            try ServerConfiguration.parse(arguments: arguments, environment: [:])
        }
        do {
            _ = try ServerConfiguration.parse(arguments: arguments, environment: [:])
        } catch {
            #expect(String(describing: error).contains(arguments[0].split(separator: "=")[0]))
        }
    }
}
