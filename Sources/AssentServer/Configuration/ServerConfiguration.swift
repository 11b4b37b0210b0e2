package import AssentHTTP
package import AssentServerCore
package import AssentStorage
package import AssentAttestation
import Foundation

/// Everything `assentd` can be told, with defaults. Filled from `ASSENT_*` environment variables, then from flags
/// (flags win), and validated before anything starts.
package struct ServerConfiguration: Sendable, Hashable {
    /// Address to listen on.
    package var host = "127.0.0.1"
    /// Port to listen on (0 picks a free one).
    package var port = 8420
    /// SQLite file path, or a `postgres://` URL (see ``DatabaseLocation``).
    package var database = ".assent/assent.sqlite"
    /// PostgreSQL connections per instance; defaults to eight per HTTP thread.
    package var databaseConnections: Int?
    /// Backups written beside an SQLite database before a schema migration that are kept (0 writes none).
    package var preMigrationBackups = 3
    /// Minimum log level: debug, info, warning, error.
    package var logLevel = "info"
    /// Default lifetime of track tokens, seconds.
    package var tokenLifetimeSeconds = 600
    /// The URL browsers reach `assentd` at; defaults to `http://HOST:PORT`.
    package var publicURL: String?
    /// HTTP worker threads; defaults to one per core.
    package var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Largest accepted request body.
    package var maxBodyBytes = 1 << 20
    /// Most simultaneous connections.
    package var maxConnections = 10_000
    /// Seconds an idle connection is kept.
    package var connectionTimeoutSeconds = 30
    /// Base64 of the 32-byte master key; when nil it is read from (or created in) ``masterKeyFile``.
    package var masterKey: String?
    /// Where the master key lives when not given directly; defaults to `master.key` beside the SQLite file. With
    /// PostgreSQL it must be given (here or as ``masterKey``): every instance needs the same key.
    package var masterKeyFile: String?
    /// Whether to create a development tenant when the database has none (`--dev`; SQLite only). Off by default:
    /// a production database never gets a tenant nobody asked for.
    package var createDevelopmentTenant = false
    /// Seconds before the first webhook retry (doubling after each further failure).
    package var webhookRetrySeconds: Double = 30
    /// Webhook attempts in all before an event is given up.
    package var webhookMaxAttempts = 4
    /// The directory the demo pages are served from (relative paths from the working directory).
    package var webRoot = "web"
    /// Replaces APNs' production and sandbox hosts (a proxy, or a test's fake).
    package var apnsURL: String?
    /// Replaces FCM's `https://fcm.googleapis.com`.
    package var fcmURL: String?
    /// A PEM file of certificates trusted for APNs, FCM and OAuth instead of the system's (a test's fake or a proxy).
    package var pushCAFile: String?
    /// A PEM bundle of roots device attestations may chain to, for both formats, beside the pinned Apple and Google
    /// ones (a private Android fleet's CA, a test authority); checked at start.
    package var attestationRootsFile: String?
    /// Where Google's Android attestation status list is read from over HTTP (an operator URL like ``apnsURL``; no
    /// default: unset, and without ``androidAttestationStatusFile``, revocation is not checked).
    package var androidAttestationStatusURL: String?
    /// A file holding a copy of the status list, instead of ``androidAttestationStatusURL``.
    package var androidAttestationStatusFile: String?
    /// Seconds between good reads of the status list (an hour); a hidden flag for tests.
    package var androidAttestationStatusRefreshSeconds = 3600
    /// Seconds before the first retry of a notification (doubling after each failure, at most 60 s).
    package var pushRetrySeconds: Double = 1
    /// Most notifications sent at once.
    package var pushConcurrency = 64
    /// Seconds the tenant's push webhook has to accept `push.created`.
    package var pushWebhookTimeoutSeconds: Double = 5
    /// The address of a second listener that serves `GET /metrics` and nothing else; nil for none.
    package var metricsHost: String?
    /// The metrics listener's port (0 picks a free one); set with ``metricsHost``.
    package var metricsPort: Int?
    /// The address of a listener that serves the admin console (`/admin…` and its `/web/console…` files) and nothing
    /// else; when set, the API listener answers the console's paths `404 not_found`. Nil serves the console on the API
    /// listener.
    package var adminHost: String?
    /// The admin listener's port (0 picks a free one); set with ``adminHost``.
    package var adminPort: Int?
    /// When set, `GET /metrics` answers only `Authorization: Bearer` with this token, and is served on the API
    /// listener too. Without it (and without a metrics listener) no listener serves `/metrics`.
    package var metricsToken: String?
    /// Seconds between samples of the store for the metrics (outbox depth and age, expired challenges).
    package var metricsSampleSeconds = 15
    /// Whether URLs a tenant supplies (webhooks, the push webhook, an FCM `token_uri`) may lead to loopback, private
    /// and other non-global addresses — for development and tests only (``OutboundURLPolicy``).
    package var allowPrivateURLs = false
    /// Whether `GET /bench/hello` answers (``Endpoint/benchHello``); `404` otherwise. For benchmarks only.
    package var benchRoutes = false

    /// The policy for URLs tenants supply, as this configuration sets it.
    var outboundURLPolicy: OutboundURLPolicy { OutboundURLPolicy(allowsPrivateAddresses: allowPrivateURLs) }

    /// PEM certificate chain (leaf first) for HTTPS on the API listener; set together with ``tlsKeyFile``.
    package var tlsCertificateFile: String?
    /// PEM private key (unencrypted) matching ``tlsCertificateFile``.
    package var tlsKeyFile: String?

    /// Rate limits: on by default with each rule's default limit (``RateLimitRule``); per instance.
    package var rateLimits = RateLimitPolicy()
    /// Reverse proxies whose `X-Forwarded-For` names the client address; none by default.
    package var trustedProxies = TrustedProxies()

    /// The defaults.
    package init() {}

    /// A configuration problem, reported before start.
    package struct Invalid: Error, CustomStringConvertible {
        /// What is wrong and how to fix it.
        package let description: String
    }

    /// Every option: flag, environment variable, meaning.
    package static let options: [(flag: String, env: String, help: String)] = [
        ("--listen HOST:PORT", "ASSENT_LISTEN", "address to listen on (default 127.0.0.1:8420)"),
        ("--database PATH|URL", "ASSENT_DATABASE", "SQLite file or postgres:// URL (default .assent/assent.sqlite)"),
        ("--database-url URL", "ASSENT_DATABASE_URL", "PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DB (same as --database)"),
        ("--database-connections N", "ASSENT_DATABASE_CONNECTIONS", "PostgreSQL connections per instance (default 8 per thread)"),
        ("--pre-migration-backups N", "ASSENT_PRE_MIGRATION_BACKUPS", "backups kept beside an SQLite database, one written before each migration (default 3, 0 writes none)"),
        ("--log-level LEVEL", "ASSENT_LOG_LEVEL", "debug, info, warning or error (default info)"),
        ("--token-lifetime SECONDS", "ASSENT_TOKEN_LIFETIME", "track token lifetime, 30-3600 (default 600)"),
        ("--public-url URL", "ASSENT_PUBLIC_URL", "URL browsers use to reach assentd (default http://LISTEN)"),
        ("--threads N", "ASSENT_THREADS", "HTTP worker threads (default: one per core)"),
        ("--max-body-bytes N", "ASSENT_MAX_BODY_BYTES", "largest request body (default 1048576)"),
        ("--max-connections N", "ASSENT_MAX_CONNECTIONS", "most simultaneous connections (default 10000; with --tls-cert, open WebSockets count too)"),
        ("--connection-timeout SECONDS", "ASSENT_CONNECTION_TIMEOUT", "idle connection timeout (default 30)"),
        ("--master-key-file PATH", "ASSENT_MASTER_KEY_FILE", "master key file (default master.key beside an SQLite database; required with PostgreSQL unless ASSENT_MASTER_KEY)"),
        ("", "ASSENT_MASTER_KEY", "base64 of a 32-byte master key (instead of the file)"),
        ("--webhook-retry SECONDS", "ASSENT_WEBHOOK_RETRY", "delay before the first webhook retry, doubling (default 30)"),
        ("--webhook-attempts N", "ASSENT_WEBHOOK_ATTEMPTS", "webhook attempts before giving up (default 4)"),
        ("--web-root DIR", "ASSENT_WEB_ROOT", "directory of the demo pages served under /web/ (default web)"),
        ("--apns-url URL", "ASSENT_APNS_URL", "APNs base URL instead of Apple's production/sandbox hosts"),
        ("--fcm-url URL", "ASSENT_FCM_URL", "FCM base URL (default https://fcm.googleapis.com)"),
        ("--push-ca-file PATH", "ASSENT_PUSH_CA_FILE", "PEM certificates trusted for APNs/FCM/OAuth instead of the system's"),
        ("--attestation-roots FILE", "ASSENT_ATTESTATION_ROOTS", "PEM roots device attestations may chain to, beside the pinned Apple and Google ones"),
        ("--android-attestation-status-url URL", "ASSENT_ANDROID_ATTESTATION_STATUS_URL", "Android attestation status list to read hourly once a tenant uses Android attestation (no default: no revocation check)"),
        ("--android-attestation-status-file FILE", "ASSENT_ANDROID_ATTESTATION_STATUS_FILE", "a copy of the Android attestation status list, read hourly (instead of the URL)"),
        ("--push-retry SECONDS", "ASSENT_PUSH_RETRY", "delay before a notification's first retry, doubling, max 60 (default 1)"),
        ("--push-concurrency N", "ASSENT_PUSH_CONCURRENCY", "most notifications in flight (default 64)"),
        ("--push-webhook-timeout SECONDS", "ASSENT_PUSH_WEBHOOK_TIMEOUT", "time the push.created webhook has (default 5)"),
        ("--metrics-listen HOST:PORT", "ASSENT_METRICS_LISTEN", "separate listener serving only GET /metrics (default: none)"),
        ("--admin-listen HOST:PORT", "ASSENT_ADMIN_LISTEN", "serve the admin console (/admin/) only on this listener, not on --listen (default: on --listen)"),
        ("--metrics-token TOKEN", "ASSENT_METRICS_TOKEN", "bearer token for GET /metrics, which it also enables on --listen (16+ chars)"),
        ("--metrics-sample SECONDS", "ASSENT_METRICS_SAMPLE", "how often the outbox gauges and expired challenges are read from the store (default 15)"),
        ("--dev", "ASSENT_DEV", "create a development tenant in an empty SQLite database (refused with PostgreSQL)"),
        ("--no-dev-tenant", "ASSENT_NO_DEV_TENANT", "accepted for compatibility and ignored: no development tenant without --dev"),
        ("--allow-private-urls", "ASSENT_ALLOW_PRIVATE_URLS", "let tenant webhooks and FCM token_uri reach loopback/private addresses (development, tests)"),
        ("--bench-routes", "ASSENT_BENCH_ROUTES", "serve GET /bench/hello, the request ceiling assent-bench --scenario hello measures (benchmarks only)"),
        ("--rate-limits on|off", "ASSENT_RATE_LIMITS", "rate limits per client address, tenant, user, key, activation (default on; off for benchmarks)"),
        ("--rate-limit NAME=COUNT/PERIOD", "ASSENT_RATE_LIMIT", "change a limit, e.g. claim-key=30/1m; NAME * sets all; repeatable or comma list (docs/rate-limits.md)"),
        ("--tls-cert FILE", "ASSENT_TLS_CERT", "PEM certificate chain, leaf first: serve HTTPS (TLS 1.2+) on --listen; SIGHUP reloads it"),
        ("--tls-key FILE", "ASSENT_TLS_KEY", "PEM private key of --tls-cert (unencrypted; keep it 0600)"),
        ("--trusted-proxy CIDR", "ASSENT_TRUSTED_PROXY", "reverse proxy whose X-Forwarded-For names the client; repeatable or comma list (default none)"),
    ]

    /// Reads the environment, then the arguments (without the program name).
    package static func parse(arguments: [String], environment: [String: String]) throws -> ServerConfiguration {
        var config = ServerConfiguration()
        var values: [String: String] = [:]
        let names: [String: String] = [
            "ASSENT_LISTEN": "--listen", "ASSENT_DATABASE": "--database", "ASSENT_DATABASE_URL": "--database-url",
            "ASSENT_DATABASE_CONNECTIONS": "--database-connections",
            "ASSENT_PRE_MIGRATION_BACKUPS": "--pre-migration-backups",
            "ASSENT_LOG_LEVEL": "--log-level", "ASSENT_TOKEN_LIFETIME": "--token-lifetime",
            "ASSENT_PUBLIC_URL": "--public-url", "ASSENT_THREADS": "--threads",
            "ASSENT_MAX_BODY_BYTES": "--max-body-bytes", "ASSENT_MAX_CONNECTIONS": "--max-connections",
            "ASSENT_CONNECTION_TIMEOUT": "--connection-timeout", "ASSENT_MASTER_KEY_FILE": "--master-key-file",
            "ASSENT_WEBHOOK_RETRY": "--webhook-retry", "ASSENT_WEBHOOK_ATTEMPTS": "--webhook-attempts",
            "ASSENT_WEB_ROOT": "--web-root", "ASSENT_APNS_URL": "--apns-url", "ASSENT_FCM_URL": "--fcm-url",
            "ASSENT_PUSH_CA_FILE": "--push-ca-file", "ASSENT_PUSH_RETRY": "--push-retry",
            "ASSENT_ATTESTATION_ROOTS": "--attestation-roots",
            "ASSENT_ANDROID_ATTESTATION_STATUS_URL": "--android-attestation-status-url",
            "ASSENT_ANDROID_ATTESTATION_STATUS_FILE": "--android-attestation-status-file",
            // Not in `options` (and so not in --help): the status list's refresh, shortened by tests.
            "ASSENT_ANDROID_ATTESTATION_STATUS_REFRESH": "--android-attestation-status-refresh",
            "ASSENT_PUSH_CONCURRENCY": "--push-concurrency", "ASSENT_PUSH_WEBHOOK_TIMEOUT": "--push-webhook-timeout",
            "ASSENT_METRICS_LISTEN": "--metrics-listen", "ASSENT_METRICS_TOKEN": "--metrics-token",
            "ASSENT_METRICS_SAMPLE": "--metrics-sample", "ASSENT_ADMIN_LISTEN": "--admin-listen",
            "ASSENT_RATE_LIMITS": "--rate-limits", "ASSENT_RATE_LIMIT": "--rate-limit",
            "ASSENT_TRUSTED_PROXY": "--trusted-proxy",
            "ASSENT_TLS_CERT": "--tls-cert", "ASSENT_TLS_KEY": "--tls-key",
        ]
        // Flags that may be given more than once: their values add up (as a comma list) and replace the environment's.
        let repeatable: Set<String> = ["--rate-limit", "--trusted-proxy"]
        var given: Set<String> = []
        for (env, flag) in names.sorted(by: { $0.key < $1.key }) {
            if let value = environment[env], !value.isEmpty { values[flag] = value }
        }
        config.masterKey = environment["ASSENT_MASTER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let value = environment["ASSENT_DEV"], ["1", "true", "yes"].contains(value.lowercased()) {
            config.createDevelopmentTenant = true
        }
        if let value = environment["ASSENT_ALLOW_PRIVATE_URLS"], ["1", "true", "yes"].contains(value.lowercased()) {
            config.allowPrivateURLs = true
        }
        if let value = environment["ASSENT_BENCH_ROUTES"], ["1", "true", "yes"].contains(value.lowercased()) {
            config.benchRoutes = true
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            // `--no-dev-tenant` (and ASSENT_NO_DEV_TENANT) once turned off what is now off unless asked for; scripts
            // that still pass it keep working.
            if argument == "--dev" || argument == "--no-dev-tenant" {
                if argument == "--dev" { config.createDevelopmentTenant = true }
                index += 1
                continue
            }
            if argument == "--allow-private-urls" {
                config.allowPrivateURLs = true
                index += 1
                continue
            }
            if argument == "--bench-routes" {
                config.benchRoutes = true
                index += 1
                continue
            }
            var flag = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard Set(names.values).contains(flag) else {
                throw Invalid(description: "unknown option \(argument) (see assentd --help)")
            }
            if value == nil {
                guard index + 1 < arguments.count else { throw Invalid(description: "\(flag) needs a value") }
                value = arguments[index + 1]
                index += 1
            }
            if repeatable.contains(flag), given.contains(flag), let earlier = values[flag], let added = value {
                values[flag] = earlier + "," + added
            } else {
                values[flag] = value
            }
            given.insert(flag)
            index += 1
        }

        func integer(_ flag: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = values[flag] else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw Invalid(description: "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return number
        }

        func address(_ flag: String, example: String) throws -> (host: String, port: Int)? {
            guard let listen = values[flag] else { return nil }
            guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
                  (0...65535).contains(port), colon != listen.startIndex
            else {
                throw Invalid(description: "\(flag) must be HOST:PORT, e.g. \(example), got '\(listen)'")
            }
            return (String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
        }
        if let (host, port) = try address("--listen", example: "127.0.0.1:8420") {
            config.host = host
            config.port = port
        }
        if let metrics = try address("--metrics-listen", example: "127.0.0.1:9420") {
            guard metrics.port == 0 || metrics != (config.host, config.port) else {
                throw Invalid(description: "--metrics-listen must differ from --listen (\(config.host):\(config.port))")
            }
            config.metricsHost = metrics.host
            config.metricsPort = metrics.port
        }
        if let admin = try address("--admin-listen", example: "127.0.0.1:8421") {
            guard admin.port == 0 || admin != (config.host, config.port) else {
                throw Invalid(description: "--admin-listen must differ from --listen (\(config.host):\(config.port))")
            }
            if let host = config.metricsHost, let port = config.metricsPort {
                guard admin.port == 0 || admin != (host, port) else {
                    throw Invalid(description: "--admin-listen must differ from --metrics-listen (\(host):\(port))")
                }
            }
            config.adminHost = admin.host
            config.adminPort = admin.port
        }
        if let token = values["--metrics-token"] {
            // Sent by a scraper in a header: printable ASCII without spaces, and long enough not to be guessed.
            guard token.utf8.count >= 16, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw Invalid(description: "--metrics-token must be at least 16 printable ASCII characters without spaces")
            }
            config.metricsToken = token
        }
        if let url = values["--database-url"] {
            guard DatabaseLocation(url).isShared else {
                throw Invalid(description: "--database-url must be a postgres:// URL, got '\(DatabaseLocation(url).redacted)'")
            }
            values["--database"] = url
        }
        if let database = values["--database"] {
            guard !database.isEmpty else { throw Invalid(description: "--database must not be empty") }
            config.database = database
        }
        if let level = values["--log-level"] {
            guard ["debug", "info", "warning", "error"].contains(level) else {
                throw Invalid(description: "--log-level must be debug, info, warning or error, got '\(level)'")
            }
            config.logLevel = level
        }
        if let value = try integer("--token-lifetime", 30...3600) { config.tokenLifetimeSeconds = value }
        if let value = try integer("--threads", 1...256) { config.threads = value }
        if let value = try integer("--database-connections", 1...1000) { config.databaseConnections = value }
        if let value = try integer("--pre-migration-backups", 0...1000) { config.preMigrationBackups = value }
        if let value = try integer("--max-body-bytes", 1024...(64 << 20)) { config.maxBodyBytes = value }
        if let value = try integer("--max-connections", 1...1_000_000) { config.maxConnections = value }
        if let value = try integer("--connection-timeout", 1...3600) { config.connectionTimeoutSeconds = value }
        if let url = values["--public-url"] {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw Invalid(description: "--public-url must be an http(s) URL, got '\(url)'")
            }
            config.publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        config.masterKeyFile = values["--master-key-file"]
        if let value = try integer("--webhook-retry", 1...86_400) { config.webhookRetrySeconds = Double(value) }
        if let value = try integer("--webhook-attempts", 1...20) { config.webhookMaxAttempts = value }
        if let value = try integer("--metrics-sample", 1...3600) { config.metricsSampleSeconds = value }
        if let root = values["--web-root"] {
            guard !root.isEmpty else { throw Invalid(description: "--web-root must not be empty") }
            config.webRoot = root
        }
        func seconds(_ flag: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let text = values[flag] else { return nil }
            guard let number = Double(text), number.isFinite, range.contains(number) else {
                throw Invalid(description: "\(flag) must be a number of seconds from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return number
        }
        func baseURL(_ flag: String) throws -> String? {
            guard let text = values[flag] else { return nil }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                  url.query == nil
            else { throw Invalid(description: "\(flag) must be an http(s) base URL, got '\(text)'") }
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        config.apnsURL = try baseURL("--apns-url")
        config.fcmURL = try baseURL("--fcm-url")
        if let file = values["--push-ca-file"] {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw Invalid(description: "--push-ca-file: cannot read '\(file)'")
            }
            config.pushCAFile = file
        }
        if let file = values["--attestation-roots"] {
            do {
                _ = try Self.attestationRoots(file: file)
            } catch {
                throw Invalid(description: "--attestation-roots: \(error)")
            }
            config.attestationRootsFile = file
        }
        let statusURL = try baseURL("--android-attestation-status-url")
        switch (statusURL, values["--android-attestation-status-file"]) {
        case (nil, nil):
            break
        case (let url?, nil):
            config.androidAttestationStatusURL = url
        case (nil, let file?):
            guard !file.isEmpty else { throw Invalid(description: "--android-attestation-status-file must not be empty") }
            config.androidAttestationStatusFile = file
        default:
            throw Invalid(description: "--android-attestation-status-url and --android-attestation-status-file exclude each other: give one")
        }
        if let value = try integer("--android-attestation-status-refresh", 1...86_400) {
            config.androidAttestationStatusRefreshSeconds = value
        }
        if let value = try seconds("--push-retry", 0.01...3600) { config.pushRetrySeconds = value }
        if let value = try integer("--push-concurrency", 1...1024) { config.pushConcurrency = value }
        if let value = try seconds("--push-webhook-timeout", 0.1...30) { config.pushWebhookTimeoutSeconds = value }
        if let switched = values["--rate-limits"] {
            switch switched.lowercased() {
            case "on": config.rateLimits.enabled = true
            case "off": config.rateLimits.enabled = false
            default: throw Invalid(description: "--rate-limits must be on or off, got '\(switched)'")
            }
        }
        if let settings = values["--rate-limit"], let bad = config.rateLimits.apply(settings) {
            let names = RateLimitRule.allCases.map(\.rawValue).joined(separator: ", ")
            throw Invalid(description: "--rate-limit must be NAME=COUNT/PERIOD (e.g. claim-key=30/1m, PERIOD in s, m or h), NAME one of *, \(names); got '\(bad)'")
        }
        if let cidrs = values["--trusted-proxy"] {
            for cidr in cidrs.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !cidr.isEmpty {
                guard let network = TrustedProxies.Network(cidr: cidr) else {
                    throw Invalid(description: "--trusted-proxy must be an IP address or CIDR (e.g. 10.0.0.0/8), got '\(cidr)'")
                }
                config.trustedProxies.networks.append(network)
            }
        }
        switch (values["--tls-cert"], values["--tls-key"]) {
        case (nil, nil):
            break
        case (let cert?, let key?):
            for (flag, file) in [("--tls-cert", cert), ("--tls-key", key)] {
                guard FileManager.default.isReadableFile(atPath: file) else {
                    throw Invalid(description: "\(flag): cannot read '\(file)'")
                }
            }
            config.tlsCertificateFile = cert
            config.tlsKeyFile = key
        default:
            throw Invalid(description: "--tls-cert and --tls-key go together: give both files, or neither for plain HTTP")
        }
        if config.databaseLocation.isShared, config.createDevelopmentTenant {
            throw Invalid(description: Self.developmentTenantOnPostgres)
        }
        if config.databaseLocation.isShared, config.masterKey == nil, config.masterKeyFile == nil {
            throw Invalid(description: DatabaseLocation.sharedMasterKeyAdvice)
        }
        return config
    }

    /// Why `--dev` is refused with PostgreSQL: a shared database is a deployment, where a tenant created by a flag
    /// (its secret key printed on one instance's terminal) is a tenant nobody manages.
    package static let developmentTenantOnPostgres =
        "--dev (ASSENT_DEV) creates a development tenant and is for a local SQLite database only; with PostgreSQL, "
        + "create tenants with `assent admin tenant create`"

    /// The database ``database`` names.
    package var databaseLocation: DatabaseLocation { DatabaseLocation(database) }

    /// The SQLite path named by ``database`` (a plain path or a `sqlite:` / `file:` URL); empty for PostgreSQL.
    package var sqlitePath: String {
        if case .sqlite(let path) = databaseLocation { return path }
        return ""
    }

    /// PostgreSQL pool size: ``databaseConnections``, or eight per HTTP thread. Requests are asynchronous, so each
    /// thread has many in flight, and each holds a connection for a few round trips; on two cores 16 connections
    /// served ~30 % more push flows than 8 in alternating runs (BENCHMARKS.md).
    package var resolvedDatabaseConnections: Int { databaseConnections ?? max(8, threads * 8) }

    /// The master key this configuration names (``masterKey``, else ``masterKeyFile``, else `master.key` beside the
    /// SQLite file, created when missing), as the CLI reads it too. A group-readable key file is reported to `warn`.
    package func loadMasterKey(warn: (String) -> Void = { _ in }) throws -> [UInt8] {
        do {
            return try databaseLocation.loadMasterKey(base64: masterKey, file: masterKeyFile, warn: warn)
        } catch let error as MasterKey.Invalid {
            throw Invalid(description: error.description)
        }
    }

    /// The backup written before a migration of an SQLite database (``preMigrationBackups`` kept), whose folder is
    /// told to `written`; nil when none are kept.
    package func preMigrationBackup(masterKey: [UInt8], written: @escaping @Sendable (String) -> Void) -> PreMigrationBackup? {
        guard preMigrationBackups > 0 else { return nil }
        return PreMigrationBackup(
            keep: preMigrationBackups, masterKey: masterKey, toolVersion: AssentVersion.current, written: written)
    }

    /// The public URL, defaulting to the listen address.
    package func resolvedPublicURL(port actualPort: Int) -> String {
        if let publicURL { return publicURL }
        let host = host.contains(":") ? "[\(host)]" : (host == "0.0.0.0" ? "127.0.0.1" : host)
        return "\(tlsCertificateFile == nil ? "http" : "https")://\(host):\(actualPort)"
    }
}

extension ServerConfiguration {
    /// The trust anchors of device attestations: the pinned roots plus those of `file` (a PEM bundle) when given.
    /// Throws a sentence for the operator when the file cannot be read or holds no certificate that parses.
    package static func attestationRoots(file: String?) throws -> AttestationTrustAnchors {
        guard let file else { return .pinned }
        guard let data = FileManager.default.contents(atPath: file) else { throw Unreadable(file: file) }
        return try AttestationTrustAnchors.pinned.adding(pemBundle: String(decoding: data, as: UTF8.self))
    }

    /// An `--attestation-roots` file that cannot be read.
    struct Unreadable: Error, CustomStringConvertible {
        let file: String
        var description: String { "cannot read '\(file)'" }
    }
}
