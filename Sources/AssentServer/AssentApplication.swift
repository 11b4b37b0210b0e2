import AssentHTTP
import AssentHTTPClient
package import AssentLog
package import AssentServerCore
import AssentWire
import Foundation
import AssentStorage
import AssentAttestation

/// `assentd` as a value: opens the store, builds the services and routes, and runs the HTTP server. The executable
/// and the end-to-end tests both start Assent through this type.
package final class AssentApplication: Sendable {
    /// What start-up produced.
    package struct Started: Sendable {
        /// The bound port.
        package var port: Int
        /// Where browsers reach the server.
        package var publicURL: String
        /// Created on first start with an empty database; its secret exists only here.
        package var developmentTenant: TenantDirectory.Credentials?
        /// The metrics listener's bound port, when there is one.
        package var metricsPort: Int?
        /// The admin console listener's bound port, when there is one (`--admin-listen`).
        package var adminPort: Int? = nil
    }

    private let configuration: ServerConfiguration
    private let store: any ServerStore
    private let server: HTTPServer
    /// The API listener's certificate and key under `--tls-cert`/`--tls-key`.
    private let tls: TLSCredentials?
    /// The listener that serves only `/metrics` (`--metrics-listen`), when configured.
    private let metricsServer: HTTPServer?
    /// The listener that serves only the admin console (`--admin-listen`), when configured.
    private let adminServer: HTTPServer?
    private let tenants: TenantDirectory
    private let logger: Logger
    private let publicURLBox: PublicURL
    private let webhooks: WebhookDispatcher
    private let sweeper: Sweeper
    /// Adds this instance's overview counts to the store and folds the overview totals.
    private let overviewFlusher: OverviewFlusher
    /// Writes rate-limit refusals to the tenants' audit logs, one summary a minute.
    private let trips: RateLimitTrips
    private let sampler: MetricsSampler
    private let pushWorker: PushDeliveryWorker
    private let pushClients: [HTTP2Client]
    private let bridge: ChallengeEventBridge
    /// Google's Android attestation status list, when the operator names a source.
    private let statusList: AndroidStatusListCache?
    /// The client that reads `--android-attestation-status-url`, when set.
    private let statusListClient: HTTP2Client?
    /// The master key ring every key here derives from, read again by ``keyReloads`` and ``reloadMasterKeys()``.
    private let keys: MasterKeys
    /// Reads the master key ring file again every ``ServerConfiguration/masterKeyReloadSeconds``.
    private let keyReloads: PeriodicLoop

    /// Validated configuration in, ready server out (not yet listening).
    package init(configuration: ServerConfiguration, logger: Logger, clock: WallClock = .system) throws {
        self.configuration = configuration
        self.logger = logger
        if let cert = configuration.tlsCertificateFile, let key = configuration.tlsKeyFile {
            tls = try TLSCredentials(certificateFile: cert, keyFile: key)
        } else {
            tls = nil
        }
        let keys = try configuration.loadMasterKeys(warn: { logger.warning($0, [:]) }) { ring in
            logger.log(.info, "master key ring reloaded", [
                "current": .int(ring.current), "retired": .string(ring.retired.map(String.init).joined(separator: ",")),
            ])
        }
        self.keys = keys
        keyReloads = PeriodicLoop(clock: ContinuousClock())
        let overviewTally = OverviewTally(clock: clock)
        let domainMetrics = DomainMetrics(overview: overviewTally)
        let store = try configuration.databaseLocation.open(
            connections: configuration.resolvedDatabaseConnections, metrics: domainMetrics,
            preMigration: configuration.preMigrationBackup(ring: keys.current) { folder in
                logger.info("backed up the database before migrating it", ["backup": .string(folder)])
            })
        self.store = store
        let tokens = TokenIssuer(keys: keys, clock: clock)
        tenants = TenantDirectory(store: store, clock: clock, keys: keys)
        let audit = AuditLog(store: store, keys: keys, clock: clock)
        let metrics = HTTPMetrics()
        publicURLBox = PublicURL(configuration.publicURL ?? configuration.resolvedPublicURL(port: configuration.port))

        let tokenLifetime = Int64(configuration.tokenLifetimeSeconds)
        let webhookEvents = WebhookEvents(clock: clock, source: publicURLBox)
        let challengeEvents = ChallengeEvents()
        bridge = ChallengeEventBridge(store: store, events: challengeEvents, logger: logger)
        let credentials = ClientCredentials(tenants: tenants, tokens: tokens)
        let attestationRoots = try ServerConfiguration.attestationRoots(file: configuration.attestationRootsFile)
        for root in attestationRoots.addedRoots {
            logger.info("attestation root added", ["subject": .string(root.subject), "sha256": .string(root.sha256)])
        }
        // The status list: an operator's URL (its own client, the system's trust store, no destination policy: an
        // operator URL like --apns-url) or file; read by its own loop, only once a tenant uses Android attestation.
        let statusListSource: (any AndroidStatusListSource)?
        if let url = configuration.androidAttestationStatusURL {
            let client = try HTTP2Client(options: HTTP2Client.Options(), name: "assent-status-list")
            statusListClient = client
            statusListSource = HTTP2StatusListSource(
                client: client, url: url, maximumBytes: AndroidRevocationStatusList.maximumBytes)
        } else {
            statusListClient = nil
            statusListSource = configuration.androidAttestationStatusFile.map { AndroidStatusListFile(path: $0) }
        }
        statusList = statusListSource.map { source in
            AndroidStatusListCache(
                source: source, inUse: { try await store.tenants().contains { $0.settings.usesAndroidAttestation } },
                clock: clock, logger: logger, metrics: domainMetrics,
                refresh: .seconds(configuration.androidAttestationStatusRefreshSeconds))
        }
        let enrolmentAttestation = EnrolmentAttestation(
            challenges: store, trustAnchors: attestationRoots, clock: clock, statusList: statusList, metrics: domainMetrics)
        let devices = DeviceCredentialService(
            store: store, clock: clock, webhooks: webhookEvents, nonces: NonceIssuer(keys: keys, clock: clock),
            audit: audit, attestation: enrolmentAttestation)
        let users = UserService(store: store, clock: clock, webhooks: webhookEvents, audit: audit)
        let history = ChallengeHistory(challenges: store, deliveries: store)
        let activations = ActivationService(
            store: store, clock: clock, keys: keys, logger: logger, metrics: domainMetrics, audit: audit,
            attestation: enrolmentAttestation)
        self.activations = activations
        let pushGuards = PushGuards(store: store, clock: clock, webhooks: webhookEvents)
        let signIns = SignInHistory(store: store, webhooks: webhookEvents, clock: clock, logger: logger)
        let decisions = ChallengeDecisions(
            store: store, clock: clock, events: challengeEvents, activations: activations, guards: pushGuards,
            metrics: domainMetrics, audit: audit, history: signIns)
        let qrChallenges = QRChallengeService(
            store: store, clock: clock, tokens: tokens, events: challengeEvents, defaultTokenLifetime: tokenLifetime,
            metrics: domainMetrics)

        // Outbound requests: one HTTP/2 client (one connection per provider host) for APNs and FCM, the operator's
        // hosts. Every URL a tenant supplies goes through a client that reaches only public addresses (checked for
        // every socket it opens, no proxy) unless --allow-private-urls: one for its webhooks (the outbox and the
        // synchronous push.created), which may use several connections per host, and one for its FCM service
        // account's token_uri, which trusts --push-ca-file like the providers. Separate clients, so a tenant's request
        // never reuses a connection the operator's opened to a private host.
        var providerOptions = HTTP2Client.Options()
        providerOptions.caFile = configuration.pushCAFile
        let providerClient = try HTTP2Client(options: providerOptions, name: "assent-push")
        var webhookOptions = HTTP2Client.Options()
        webhookOptions.maxConnectionsPerHost = 16
        webhookOptions.destinations = configuration.outboundURLPolicy
        let webhookClient = try HTTP2Client(options: webhookOptions, name: "assent-push-webhook")
        var oauthOptions = providerOptions
        oauthOptions.destinations = configuration.outboundURLPolicy
        let oauthClient = try HTTP2Client(options: oauthOptions, name: "assent-oauth")
        pushClients = [providerClient, webhookClient, oauthClient]
        let sealer = PushCredentialSealer(keys: keys)
        var apnsOptions = APNsSender.Options()
        apnsOptions.overrideURL = configuration.apnsURL
        var fcmOptions = FCMSender.Options()
        if let url = configuration.fcmURL { fcmOptions.baseURL = url }
        var pushPolicy = PushDeliveryWorker.Policy()
        pushPolicy.concurrency = configuration.pushConcurrency
        pushPolicy.retry.base = configuration.pushRetrySeconds
        pushWorker = PushDeliveryWorker(
            store: store, tenants: store,
            senders: [
                .apns: APNsSender(client: providerClient, sealer: sealer, clock: clock, options: apnsOptions),
                .fcm: FCMSender(
                    client: providerClient, tokenClient: oauthClient, sealer: sealer, clock: clock, logger: logger,
                    options: fcmOptions),
            ],
            clock: clock, logger: logger, policy: pushPolicy, metrics: domainMetrics)
        let pushWorker = self.pushWorker
        let directory = tenants
        let webhookTransport = HTTP2WebhookTransport(client: webhookClient)
        let pushWebhook = PushWebhookSender(
            transport: webhookTransport, events: webhookEvents, clock: clock, secret: { directory.secret(of: $0) },
            timeout: configuration.pushWebhookTimeoutSeconds, logger: logger)

        var router = Router()
        let decoder = WireRequestDecoding()
        trips = RateLimitTrips(audit: audit, logger: logger)
        let limits = RequestLimits(
            limiter: RateLimiter(policy: configuration.rateLimits, metrics: domainMetrics), trips: trips)
        let authenticated = SecretKeyAuthentication(tenants: tenants, logger: logger)
        let system = SystemAPI(
            database: DatabaseHealth(store: store), metrics: metrics, domain: domainMetrics, logger: logger, metricsToken: configuration.metricsToken)
        system.register(in: &router)
        BenchAPI(enabled: configuration.benchRoutes, limits: limits, logger: logger).register(in: &router)
        ServerAPI(
            authenticated: authenticated,
            actions: ActionService(store: store, tokens: tokens, clock: clock, defaultTokenLifetime: tokenLifetime),
            users: users,
            decoder: decoder, publicURL: publicURLBox,
            push: PushAdministration(
                tenants: tenants, history: history, clock: clock, editor: PushSettingsEditor(
                    keys: keys, destinations: configuration.outboundURLPolicy)),
            guards: pushGuards,
            qrCode: QRCodeAdministration(tenants: tenants),
            settings: TenantSettingsAdministration(tenants: tenants, destinations: configuration.outboundURLPolicy)
        ).register(in: &router)
        ClientAPI(
            credentials: credentials, devices: devices,
            attestationChallenges: AttestationChallenges(store: store, clock: clock),
            push: PushChallengeService(
                store: store, clock: clock, tokens: tokens, defaultTokenLifetime: tokenLifetime, deliveries: store,
                webhook: pushWebhook, wake: { pushWorker.wake() }, guards: pushGuards, metrics: domainMetrics),
            decisions: decisions, decoder: decoder, limits: limits, logger: logger
        ).register(in: &router)
        QRCodeAPI(
            credentials: credentials, devices: devices, qr: qrChallenges, decisions: decisions, decoder: decoder,
            limits: limits, logger: logger
        ).register(in: &router)
        ActivationClientAPI(
            credentials: credentials, activations: activations, decoder: decoder, limits: limits, logger: logger)
            .register(in: &router)
        ActivationServerAPI(authenticated: authenticated, activations: activations, decoder: decoder)
            .register(in: &router)
        AuditAPI(authenticated: authenticated, audit: audit).register(in: &router)
        SignInAPI(authenticated: authenticated, history: signIns).register(in: &router)
        router.addWebSocket(
            .qrCodeWebSocket,
            QRWebSocketHandler(
                tenants: tenants, credentials: credentials, qr: qrChallenges, events: challengeEvents, decoder: decoder,
                limits: limits, logger: logger))
        let console = AdminConsole(
            sessions: ConsoleSessions(
                store: store, tenants: tenants, keys: keys, sink: AuditConsoleSignInSink(audit: audit, logger: logger),
                clock: clock),
            limits: limits, publicURL: publicURLBox, servesTLS: configuration.tlsCertificateFile != nil, logger: logger)
        // With --admin-listen the console and its files are served on a listener of their own and nowhere else.
        let separateConsole = configuration.adminHost != nil && configuration.adminPort != nil
        var adminRouter = Router()
        let consolePages = ConsolePages(
            console: console, tenants: tenants, audit: audit, history: signIns,
            push: PushSettingsEditor(keys: keys, destinations: configuration.outboundURLPolicy),
            destinations: configuration.outboundURLPolicy)
        let consoleUsers = ConsoleUsers(
            console: console, users: users, activations: activations, history: signIns, clock: clock)
        let consoleChallenges = ConsoleChallengePage(console: console, history: history, clock: clock)
        let consoleOverview = ConsoleOverview(
            console: console, reader: OverviewReader(store: store, tally: overviewTally, clock: clock), logger: logger)
        let webRoot = configuration.webRoot
        if separateConsole {
            consolePages.register(in: &adminRouter)
            consoleOverview.register(in: &adminRouter)
            consoleUsers.register(in: &adminRouter)
            consoleChallenges.register(in: &adminRouter)
            WebPages(root: webRoot, files: .console, logger: logger).register(in: &adminRouter)
            WebPages(root: webRoot, files: .exceptConsole, logger: logger).register(in: &router)
        } else {
            consolePages.register(in: &router)
            consoleOverview.register(in: &router)
            consoleUsers.register(in: &router)
            consoleChallenges.register(in: &router)
            WebPages(root: webRoot, logger: logger).register(in: &router)
        }
        routes = router.patterns + (separateConsole ? adminRouter.patterns : [])

        sweeper = Sweeper(store: store, history: signIns, clock: clock, logger: logger)
        overviewFlusher = OverviewFlusher(store: store, tally: overviewTally, logger: logger)
        sampler = MetricsSampler(
            store: store, history: signIns, metrics: domainMetrics, clock: clock, logger: logger,
            interval: .seconds(configuration.metricsSampleSeconds))
        var policy = WebhookDispatcher.Policy()
        policy.retryBase = configuration.webhookRetrySeconds
        policy.maxAttempts = configuration.webhookMaxAttempts
        webhooks = WebhookDispatcher(
            store: store, tenants: tenants, transport: webhookTransport, clock: clock, logger: logger, policy: policy)

        var http = HTTPServer.Configuration()
        http.host = configuration.host
        http.port = configuration.port
        http.threads = configuration.threads
        http.maxBodyBytes = configuration.maxBodyBytes
        http.maxConnections = configuration.maxConnections
        http.connectionTimeoutSeconds = configuration.connectionTimeoutSeconds
        http.trustedProxies = configuration.trustedProxies
        http.tls = tls
        server = HTTPServer(configuration: http, router: router, logger: logger, metrics: metrics)

        if let host = configuration.metricsHost, let port = configuration.metricsPort {
            // Its own router (only /metrics) and its own counters, so scrapes do not show in the API's figures.
            var metricsRouter = Router()
            system.registerMetrics(in: &metricsRouter, withoutToken: true)
            var listener = HTTPServer.Configuration()
            listener.host = host
            listener.port = port
            listener.threads = 1
            listener.maxBodyBytes = 1024
            listener.maxConnections = 64
            listener.connectionTimeoutSeconds = configuration.connectionTimeoutSeconds
            metricsServer = HTTPServer(
                configuration: listener, router: metricsRouter, logger: logger, metrics: HTTPMetrics())
        } else {
            metricsServer = nil
        }

        if separateConsole, let host = configuration.adminHost, let port = configuration.adminPort {
            var listener = http
            listener.host = host
            listener.port = port
            listener.threads = 1
            listener.maxBodyBytes = 65_536
            listener.maxConnections = 256
            adminServer = HTTPServer(configuration: listener, router: adminRouter, logger: logger, metrics: HTTPMetrics())
        } else {
            adminServer = nil
        }
    }

    /// The tenant directory over the running server's store (changes through it are seen at once).
    package var tenantDirectory: TenantDirectory { tenants }

    /// The PowerAuth activation service over the running server's store.
    package let activations: ActivationService

    /// Every route the server serves, in the order they were added (preflight `OPTIONS` routes included).
    package let routes: [(method: String, pattern: String)]

    /// Starts listening, then creates the development tenant when asked (``ServerConfiguration/createDevelopmentTenant``,
    /// SQLite only) and the database has no tenant. The tenant comes after the listeners on purpose: its secret key is
    /// shown once, so a start that fails to bind (a port taken) must not consume it; the next good start creates it.
    package func start() async throws -> Started {
        var development: TenantDirectory.Credentials?
        if configuration.createDevelopmentTenant, configuration.databaseLocation.isShared {
            throw ServerConfiguration.Invalid(description: ServerConfiguration.developmentTenantOnPostgres)
        }
        try server.start()
        do {
            try metricsServer?.start()
            try adminServer?.start()
            if configuration.createDevelopmentTenant, try await tenants.all().isEmpty {
                development = try await tenants.create(name: "Development", actor: "system")
            }
        } catch {
            await server.shutdown()
            await metricsServer?.shutdown()
            await adminServer?.shutdown()
            throw error
        }
        webhooks.start()
        pushWorker.start()
        sampler.start()
        sweeper.start()
        overviewFlusher.start()
        trips.start()
        statusList?.start()
        if let feed = store as? any ChallengeChangeFeed { bridge.start(feed: feed) }
        let reloadPause = Duration.milliseconds(Int64(configuration.masterKeyReloadSeconds * 1000))
        keyReloads.start { [self] _ in
            try? reloadMasterKeys()
            return .upTo(reloadPause)
        }
        // Tenants stay cached until a change anywhere clears them: no tenant read per request, and a change another
        // process or instance makes is seen within TenantChangeBounds (SQLite) or at its NOTIFY (PostgreSQL).
        (store as? any TenantChangeWatching)?.watchTenantChanges()
        let url = configuration.resolvedPublicURL(port: server.port)
        publicURLBox.set(url)
        var fields: [String: LogValue] = ["url": .string(url), "database": .string(configuration.databaseLocation.redacted)]
        if let metricsServer { fields["metricsPort"] = .int(metricsServer.port) }
        if let adminServer { fields["adminPort"] = .int(adminServer.port) }
        logger.log(.info, "assentd listening", fields)
        return Started(
            port: server.port, publicURL: url, developmentTenant: development, metricsPort: metricsServer?.port,
            adminPort: adminServer?.port)
    }

    /// Reads `--tls-cert` and `--tls-key` again (on SIGHUP): handshakes from now on use the new pair, connections already
    /// open keep theirs. Without TLS this does nothing. On a bad pair the old one stays, the error is logged and thrown.
    package func reloadTLS() throws {
        guard let tls, let cert = configuration.tlsCertificateFile, let key = configuration.tlsKeyFile else { return }
        do {
            try tls.reload(certificateFile: cert, keyFile: key)
            logger.log(.info, "tls certificate reloaded", ["file": .string(cert)])
        } catch {
            logger.log(.error, "tls certificate not reloaded: the old one stays", ["reason": .string(error.reason)])
            throw error
        }
    }

    /// Reads the master key ring file again (on SIGHUP and on a timer): a version `assent admin master-key rotate` added
    /// becomes current here too, one it retired stops signing and unsealing; either is logged (`master key ring
    /// reloaded`). A damaged file, or one lacking a version in use, leaves the ring as it was (logged and thrown).
    /// `ASSENT_MASTER_KEY` is never reloaded.
    package func reloadMasterKeys() throws {
        do {
            try keys.reload()  // a ring put in use is logged by the `changed` given to the keys
        } catch {
            logger.log(.error, "master key ring not reloaded: the ring in use stays", ["reason": .string(ErrorText.describe(error))])
            throw error
        }
    }

    /// Stops accepting, lets in-flight requests finish, then closes the database.
    package func shutdown() async {
        await server.shutdown()
        await metricsServer?.shutdown()
        await adminServer?.shutdown()
        await webhooks.stop()
        await pushWorker.stop()
        logger.log(.info, "push clients stopped", ["providerConnectionsOpened": .int(pushClients[0].connectionsOpened)])
        for client in pushClients { client.stop() }
        await sampler.stop()
        await sweeper.stop()
        await overviewFlusher.stop()
        await trips.stop()
        await statusList?.stop()
        statusListClient?.stop()
        await bridge.stop()
        await keyReloads.stop()
        await store.close()
        logger.log(.info, "assentd stopped", [:])
    }
}
