import AssentHTTP
import AssentWire

/// Operator endpoints: `GET /healthz` and `GET /metrics` (Prometheus text format).
struct SystemAPI: Sendable {
    let store: any Store
    let metrics: HTTPMetrics
    let logger: Logger

    func register(in router: inout Router) {
        router.add("GET", "/healthz") { [store, logger] request, _ in
            do {
                try await store.healthCheck()
                return APIResponses.ok(["status": "ok", "database": "ok"])
            } catch {
                logger.log(.error, "health check failed", ["requestId": .string(request.requestID), "error": .string(String(describing: error))])
                return .error(503, code: AssentError.Code.unavailable.wire, description: "The database does not answer.")
            }
        }
        router.add("GET", "/metrics") { [metrics] _, _ in
            .text(200, metrics.prometheusText(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
