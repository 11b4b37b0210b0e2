@testable import AssentServer
import AssentLog
@testable import AssentStorage
import AssentTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Who may read `GET /metrics` (V11): nobody on the API listener by default; a listener of its own serving `/metrics`
/// alone; a bearer token that also opens it on the API listener. `/healthz` stays public.
@Suite struct SystemAPITests {
    private static let token = "metrics-token-0123456789abcdef"

    /// Runs `body` against a real server on loopback with `configure` applied; passes the API and metrics base URLs.
    private static func withServer(
        _ configure: (inout ServerConfiguration) -> Void,
        _ body: (_ api: String, _ metrics: String?) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.database = directory.file("assent.sqlite")
        configuration.threads = 1
        configure(&configuration)
        let application = try AssentApplication(configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }))
        let started = try await application.start()
        do {
            try await body(started.publicURL, started.metricsPort.map { "http://127.0.0.1:\($0)" })
        } catch {
            await application.shutdown()
            throw error
        }
        await application.shutdown()
    }

    private static func get(_ url: String, authorization: String? = nil) async throws -> (status: Int, errorCode: String?, text: String) {
        var request = URLRequest(url: URL(string: url)!)
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return ((response as! HTTPURLResponse).statusCode, object?["errorCode"] as? String, String(decoding: data, as: UTF8.self))
    }

    @Test func `without a metrics option no listener serves /metrics, and /healthz stays public`() async throws {
        try await Self.withServer({ _ in }) { api, metrics in
            #expect(metrics == nil)
            let answer = try await Self.get(api + "/metrics")
            #expect(answer.status == 404 && answer.errorCode == "not_found")
            #expect(try await Self.get(api + "/healthz").status == 200)
        }
    }

    @Test func `the metrics listener serves /metrics and nothing else`() async throws {
        try await Self.withServer({ $0.metricsHost = "127.0.0.1"; $0.metricsPort = 0 }) { api, metrics in
            let metrics = try #require(metrics)
            _ = try await Self.get(api + "/healthz")
            let scrape = try await Self.get(metrics + "/metrics")
            #expect(scrape.status == 200 && scrape.text.contains(#"route="/healthz""#))
            for path in ["/healthz", "/v1/validate", "/web/"] {
                #expect(try await Self.get(metrics + path).status == 404)
            }
            #expect(try await Self.get(api + "/metrics").status == 404)
        }
    }

    @Test func `a metrics token opens /metrics on the API listener to that token only`() async throws {
        try await Self.withServer({ $0.metricsToken = Self.token; $0.metricsHost = "127.0.0.1"; $0.metricsPort = 0 }) { api, metrics in
            let metrics = try #require(metrics)
            for base in [api, metrics] {
                for authorization in [nil, "Bearer wrong", "Bearer " + Self.token.dropLast(), "Basic " + Self.token] {
                    let answer = try await Self.get(base + "/metrics", authorization: authorization)
                    #expect(answer.status == 401 && answer.errorCode == "unauthorized", "\(base) \(authorization ?? "-")")
                }
                let scrape = try await Self.get(base + "/metrics", authorization: "bearer " + Self.token)
                #expect(scrape.status == 200 && scrape.text.contains("# TYPE"))
            }
        }
    }

    @Test func `GET /bench/hello answers only with --bench-routes, and counts in the metrics like any route`() async throws {
        try await Self.withServer({ _ in }) { api, _ in
            let answer = try await Self.get(api + "/bench/hello")
            #expect(answer.status == 404 && answer.errorCode == "not_found")
        }
        try await Self.withServer({ $0.benchRoutes = true; $0.metricsToken = Self.token }) { api, _ in
            var request = URLRequest(url: URL(string: api + "/bench/hello")!)
            request.httpMethod = "GET"
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as! HTTPURLResponse
            #expect(http.statusCode == 200 && http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(String(decoding: data, as: UTF8.self) == #"{"hello":"world"}"#)
            let scrape = try await Self.get(api + "/metrics", authorization: "Bearer " + Self.token)
            #expect(scrape.text.contains(#"route="/bench/hello""#))
        }
        #expect(try ServerConfiguration.parse(arguments: ["--bench-routes"], environment: [:]).benchRoutes)
        #expect(try ServerConfiguration.parse(arguments: [], environment: ["ASSENT_BENCH_ROUTES": "1"]).benchRoutes)
        #expect(try !ServerConfiguration.parse(arguments: [], environment: [:]).benchRoutes)
    }

    @Test func `liveness answers while readiness checks the store and its schema, with the error envelope when not ready`() async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("assent.sqlite")
        try await Self.withServer({ $0.database = database }) { api, _ in
            let live = try await Self.get(api + "/healthz/live")
            #expect(live.status == 200 && live.text == #"{"status":"ok"}"#)
            let ready = try await Self.get(api + "/healthz/ready")
            #expect(ready.status == 200 && ready.text.contains(#""status":"ready""#))
            // Another build's migration history: step 10 missing, so this instance is not ready (yet still live).
            let other = try SQLiteStore(path: database)
            try await other.write { db in try db.update("DELETE FROM schema_steps WHERE version = 10", []) }
            await other.close()
            let refused = try await Self.get(api + "/healthz/ready")
            #expect(refused.status == 503 && refused.errorCode == "service_unavailable")
            #expect(refused.text.contains(#""error":"service_unavailable""#) && refused.text.contains("schema steps 10"))
            #expect(try await Self.get(api + "/healthz/live").status == 200)
        }
    }

    @Test func `a scrape carries the domain series from the start, every fixed label at 0`() async throws {
        try await Self.withServer({ $0.metricsHost = "127.0.0.1"; $0.metricsPort = 0 }) { _, metrics in
            let scrape = try await Self.get(try #require(metrics) + "/metrics")
            for line in [
                #"assent_challenges_total{kind="push",outcome="started"} 0"#,
                #"assent_challenges_total{kind="qr",outcome="expired"} 0"#,
                #"assent_powerauth_verifications_total{result="blocked"} 0"#,
                #"assent_rate_limited_requests_total{class="claim-key"} 0"#,
                "# TYPE assent_store_operation_duration_seconds histogram",
            ] {
                #expect(scrape.text.contains(line + "\n"), "\(line)")
            }
        }
    }

    @Test func `metrics flags and environment variables are read and checked`() throws {
        let flags = try ServerConfiguration.parse(
            arguments: ["--metrics-listen", "[::1]:9420", "--metrics-token", Self.token], environment: [:])
        #expect(flags.metricsHost == "::1" && flags.metricsPort == 9420 && flags.metricsToken == Self.token)
        let environment = try ServerConfiguration.parse(
            arguments: [], environment: ["ASSENT_METRICS_LISTEN": "127.0.0.1:0", "ASSENT_METRICS_TOKEN": Self.token])
        #expect(environment.metricsHost == "127.0.0.1" && environment.metricsPort == 0 && environment.metricsToken == Self.token)
        let defaults = try ServerConfiguration.parse(arguments: [], environment: [:])
        #expect(defaults.metricsHost == nil && defaults.metricsPort == nil && defaults.metricsToken == nil)
        #expect(defaults.metricsSampleSeconds == 15)
        #expect(try ServerConfiguration.parse(arguments: ["--metrics-sample", "2"], environment: [:]).metricsSampleSeconds == 2)
        #expect(try ServerConfiguration.parse(arguments: [], environment: ["ASSENT_METRICS_SAMPLE": "60"]).metricsSampleSeconds == 60)
        for arguments in [
            ["--metrics-listen", "9420"], ["--metrics-listen", "127.0.0.1:8420"],
            ["--metrics-token", "short"], ["--metrics-token", "sixteen chars with spaces"],
            ["--metrics-sample", "0"], ["--metrics-sample", "soon"],
        ] {
            #expect(throws: ServerConfiguration.Invalid.self, "\(arguments)") {
                try ServerConfiguration.parse(arguments: arguments, environment: [:])
            }
        }
    }
}
