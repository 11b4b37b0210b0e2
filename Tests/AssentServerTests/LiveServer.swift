import AssentCrypto
import AssentHTTP
@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentTestSupport
import Foundation
import Testing
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real assentd (AssentApplication over HTTP on a free loopback port) with a manual clock, for tests of expiry.
final class LiveServer: Sendable {
    let directory: TemporaryDirectory
    let application: AssentApplication
    let clock: ServerTestClock
    let baseURL: String
    let tenant: TenantDirectory.Credentials
    let databasePath: String

    init() async throws {
        clock = ServerTestClock()
        directory = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.rateLimits.enabled = false  // every test client is 127.0.0.1
        configuration.database = directory.file("assent.sqlite")
        configuration.threads = 2
        databasePath = configuration.database
        application = try AssentApplication(
            configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }), clock: clock.wallClock)
        let started = try await application.start()
        baseURL = started.publicURL
        tenant = try await application.tenantDirectory.create(name: "Development")
    }

    /// A server on a fresh PostgreSQL database (`sharing` nil), or a second instance on `sharing`'s database with its
    /// master key and tenant, as behind a load balancer. `databasePath` is then the database URL.
    init(postgresSharing other: LiveServer?) async throws {
        let clock = ServerTestClock()
        self.clock = clock
        directory = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.rateLimits.enabled = false  // every test client is 127.0.0.1
        if let other {
            configuration.database = other.databasePath
        } else {
            configuration.database = try await PostgresTestServer.start().freshDatabase()
        }
        configuration.masterKey = Self.sharedMasterKey
        configuration.threads = 2
        databasePath = configuration.database
        application = try await offPool { [configuration] in
            try AssentApplication(
                configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }), clock: clock.wallClock)
        }
        let started = try await application.start()
        baseURL = started.publicURL
        if let other {
            tenant = other.tenant
        } else {
            tenant = try await application.tenantDirectory.create(name: "Development")
        }
    }

    /// The master key every PostgreSQL-backed test server shares.
    static let sharedMasterKey = Base64.encode(Array(repeating: 0x5a, count: 32))

    func stop() async { await application.shutdown() }

    struct Reply {
        let status: Int
        let json: [String: Any]
    }

    func request(
        _ method: String, _ path: String, json body: [String: Any]? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Reply(status: (response as! HTTPURLResponse).statusCode, json: object)
    }

    var secretAuth: [String: String] {
        ["Authorization": "Basic " + Base64.encode(Array((tenant.secretKey + ":").utf8))]
    }

    var tenantAuth: [String: String] {
        ["Authorization": "Basic " + Base64.encodeURL(Array((tenant.tenant.id + ":").utf8))]
    }

    func track(_ user: String, _ action: String = "signIn", scope: String? = nil) async throws -> (token: String, key: String) {
        var body: [String: Any] = [:]
        if let scope { body["scope"] = scope }
        let reply = try await request("POST", "/v1/users/\(user)/actions/\(action)", json: body, headers: secretAuth)
        return (try #require(reply.json["token"] as? String), try #require(reply.json["idempotencyKey"] as? String))
    }

    /// Counts rows, to show a refusal changed nothing.
    func rowCounts() async throws -> [String: Int] {
        let store = try SQLiteStore(path: databasePath)
        defer { Task { await store.close() } }
        var counts: [String: Int] = [:]
        for table in ["users", "actions", "authenticators", "challenges", "nonces", "webhook_outbox"] {
            counts[table] = try await store.read { db in
                try db.queryOne("SELECT COUNT(*) FROM \(table)") { Int($0.int64(0)) } ?? 0
            }
        }
        return counts
    }
}

/// A device key speaking the iOS SDK's encodings.
struct TestDevice {
    let key = P256.PrivateKey()
    var publicKey: String { Base64.encode(key.publicKey.spkiDER) }
    var query: String { Base64.encodeURL(Array(publicKey.utf8)) }
    func sign(_ message: String) throws -> String { Base64.encode(try key.signature(for: Array(message.utf8))) }
}

extension PostgresTestServer {
    /// The process's server, its template migrated with Assent's PostgreSQL migrations (as in the storage tests).
    static func start() async throws -> PostgresTestServer {
        try await start(
            execute: { url, statement in try PostgresConnection(url: url).execute(statement) },
            migrate: { url in _ = try PostgresStore.migrate(url: url) })
    }
}
