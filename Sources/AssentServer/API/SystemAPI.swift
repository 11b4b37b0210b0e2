import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Dispatch
import Foundation

/// Operator endpoints: `GET /healthz` and `GET /metrics` (Prometheus text format).
struct SystemAPI: Sendable {
    let store: any StoreMaintenance
    let metrics: HTTPMetrics
    let logger: Logger

    func register(in router: inout Router) {
        router.add(.health) { [store, logger] request, _ in
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                try await store.healthCheck()
                let latency = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
                return Self.json(200, [
                    "status": "ok", "database": "ok", "databaseKind": store.databaseKind,
                    "databaseLatencyMs": (latency * 1000).rounded() / 1000,
                ])
            } catch {
                logger.log(.error, "health check failed", ["requestId": .string(request.requestID), "error": .string(String(describing: error))])
                return Self.json(503, [
                    "status": "unavailable", "database": "error", "databaseKind": store.databaseKind,
                    "error": AssentError.Code.unavailable.wire, "errorCode": AssentError.Code.unavailable.wire,
                    "errorDescription": "The database does not answer.",
                ])
            }
        }
        router.add(.metrics) { [metrics] _, _ in
            .text(200, metrics.prometheusText(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    private static func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return .json(status, Array(data))
    }
}
