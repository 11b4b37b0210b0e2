import AssentCrypto
import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Dispatch

/// Operator endpoints: `GET /healthz`, `GET /healthz/live`, `GET /healthz/ready`, `GET /metrics` (Prometheus text
/// format: the HTTP series and the domain series of ``DomainMetrics``) and `GET /openapi.json` (public).
///
/// The health routes are public (load balancers and orchestrators probe them). `/healthz/live` says only that the
/// process answers (a failing liveness probe restarts it, so it must not depend on the database); `/healthz/ready`
/// says the store answers and has every schema step this build knows (a failing readiness probe takes the instance
/// out of rotation); `/healthz` is the older combined check, kept. `/metrics` shows traffic by route and status, so it is not public:
/// on the API listener it answers only when a metrics token is configured, and then `401` without
/// `Authorization: Bearer TOKEN`; without a token it answers `404 not_found` there, as an unknown path does (the route
/// stays registered, so the endpoint catalogue is still the whole API). The separate metrics listener
/// (`--metrics-listen`) serves `/metrics` alone, and asks for the token too when one is configured.
struct SystemAPI: Sendable {
    let database: DatabaseHealth
    let metrics: HTTPMetrics
    let domain: DomainMetrics
    let logger: Logger
    /// SHA-256 of the metrics token, or nil when none is configured.
    let metricsTokenHash: [UInt8]?

    init(database: DatabaseHealth, metrics: HTTPMetrics, domain: DomainMetrics, logger: Logger, metricsToken: String?) {
        self.database = database
        self.metrics = metrics
        self.domain = domain
        self.logger = logger
        metricsTokenHash = metricsToken.map { SHA256.hash(Array($0.utf8)) }
    }

    /// The API listener's routes: the health routes, and `/metrics`, which answers only when a token guards it.
    func register(in router: inout Router) {
        router.add(.health) { [database, logger] request, _ in
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                try await database.check()
                let latency = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
                return Self.json(200, HealthResponse(
                    databaseKind: database.databaseKind, databaseLatencyMs: (latency * 1000).rounded() / 1000))
            } catch {
                logger.log(.error, "health check failed", ["requestId": .string(request.requestID), "error": .string(String(describing: error))])
                return Self.json(503, HealthUnavailableResponse(
                    databaseKind: database.databaseKind, errorCode: AssentError.Code.unavailable.wire,
                    errorDescription: "The database does not answer."))
            }
        }
        router.add(.healthLive) { _, _ in
            Self.json(200, LivenessResponse())
        }
        router.add(.healthReady) { [database, logger] request, _ in
            let reason: String
            do {
                try await database.check()
                let missing = try await database.missingSchemaSteps()
                if missing.isEmpty {
                    return Self.json(200, ReadinessResponse(databaseKind: database.databaseKind))
                }
                reason = "The database lacks schema steps \(missing.map(String.init).joined(separator: ", ")); restart to migrate it."
            } catch {
                logger.log(.error, "readiness check failed", [
                    "requestId": .string(request.requestID), "error": .string(String(describing: error))])
                reason = "The database does not answer."
            }
            return .error(503, code: AssentError.Code.unavailable.wire, description: reason)
        }
        registerMetrics(in: &router, withoutToken: false)
        router.add(.openAPIDocument) { _, _ in
            var response = HTTPResponse.json(200, OpenAPIDocument.json)
            response.headers.add("Access-Control-Allow-Origin", "*")
            return response
        }
    }

    /// `GET /metrics`, behind the token when one is configured; without one, served only where `withoutToken` (the
    /// metrics listener, whose router holds only this route) and `404` elsewhere.
    func registerMetrics(in router: inout Router, withoutToken: Bool) {
        router.add(.metrics) { [database, metrics, domain, metricsTokenHash] request, _ in
            if metricsTokenHash == nil, !withoutToken {
                return .notFound
            }
            if let expected = metricsTokenHash, !Self.presents(request.headers["Authorization"], expected) {
                var response = HTTPResponse.error(
                    401, code: AssentError.Code.unauthorized.wire,
                    description: "GET /metrics needs Authorization: Bearer with the metrics token.")
                response.headers.add("WWW-Authenticate", "Bearer realm=\"assent-metrics\"")
                return response
            }
            var text = metrics.prometheusText() + domain.prometheusText()
            if let roundTrips = database.databaseRoundTrips {
                text += PrometheusText.counter(
                    "assent_database_round_trips_total", "Message exchanges with the database server that waited on it.",
                    [([], roundTrips)])
            }
            return .text(200, text, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// Whether `authorization` is `Bearer TOKEN` with the configured token. Hashes are compared, in constant time,
    /// so neither the token's bytes nor its length show in the timing.
    private static func presents(_ authorization: String?, _ expected: [UInt8]) -> Bool {
        guard let authorization, authorization.count > 7,
              authorization.prefix(7).lowercased() == "bearer "
        else { return false }
        return ConstantTime.equals(SHA256.hash(Array(authorization.dropFirst(7).utf8)), expected)
    }

    private static func json(_ status: Int, _ answer: some WireEncodable) -> HTTPResponse {
        .json(status, JSONWriter.encode(answer))
    }
}
