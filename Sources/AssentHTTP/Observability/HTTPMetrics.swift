import AssentLog
import AssentSync
import Synchronization

/// Request metrics for the HTTP server, exposed in the Prometheus text format.
///
/// Series (all prefixed `assent_http_`):
/// - `requests_total{method,route,status}`: counter of finished requests.
/// - `request_duration_seconds{method,route}`: histogram of the time from the
///   request line to the last byte of the response.
/// - `open_connections`: gauge of open TCP connections.
/// - `requests_in_flight`: gauge of requests started but not finished.
///
/// And `assent_websocket_connections`: gauge of open WebSockets (upgraded
/// sockets are no longer counted in `open_connections`).
///
/// `route` is the matched route pattern, or `unmatched` (never the raw path),
/// and `method` is one of the standard methods or `OTHER`, so the number of
/// series stays bounded whatever clients send. A request the client abandoned
/// before its response was sent is counted with status `499`.
package final class HTTPMetrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets; `+Inf` is implied.
    package static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    private struct CounterKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct HistogramKey: Hashable {
        let method: String
        let route: String
    }

    private struct Storage {
        var requests: [CounterKey: Int] = [:]
        var durations: [HistogramKey: PrometheusHistogram] = [:]
    }

    private let storage = AssentLock(Storage())
    private let openConnectionCount = Atomic<Int>(0)
    private let inFlightCount = Atomic<Int>(0)
    private let webSocketCount = Atomic<Int>(0)

    /// Creates empty metrics.
    package init() {}

    /// Records one finished request.
    package func recordRequest(method: String, route: String, status: Int, durationSeconds: Double) {
        let method = Self.normalizedMethod(method)
        storage.withLock { storage in
            storage.requests[CounterKey(method: method, route: route, status: status), default: 0] += 1
            let key = HistogramKey(method: method, route: route)
            storage.durations[key, default: PrometheusHistogram(bounds: Self.latencyBuckets)].observe(durationSeconds)
        }
    }

    /// Adjusts the open-connections gauge by `delta`.
    package func connectionsChanged(by delta: Int) {
        openConnectionCount.add(delta, ordering: .relaxed)
    }

    /// Adjusts the in-flight-requests gauge by `delta`.
    package func requestsInFlightChanged(by delta: Int) {
        inFlightCount.add(delta, ordering: .relaxed)
    }

    /// Adjusts the open-WebSockets gauge by `delta`.
    package func webSocketsChanged(by delta: Int) {
        webSocketCount.add(delta, ordering: .relaxed)
    }

    /// The current number of open WebSockets.
    package var openWebSockets: Int { webSocketCount.load(ordering: .relaxed) }

    /// The current number of open connections.
    package var openConnections: Int { openConnectionCount.load(ordering: .relaxed) }

    /// The current number of requests in flight.
    package var requestsInFlight: Int { inFlightCount.load(ordering: .relaxed) }

    /// All series in the Prometheus text exposition format 0.0.4, with `HELP`
    /// and `TYPE` lines, series sorted by labels. Serve it with
    /// `Content-Type: text/plain; version=0.0.4; charset=utf-8`.
    package func prometheusText() -> String {
        let snapshot = storage.withLock { $0 }
        var text = PrometheusText.header(
            "assent_http_requests_total", "counter", "HTTP requests finished, by method, route pattern and status.")
        let counters = snapshot.requests.sorted {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }
        for (key, value) in counters {
            text += "assent_http_requests_total{method=\(Self.label(key.method)),route=\(Self.label(key.route)),status=\"\(key.status)\"} \(value)\n"
        }

        text += PrometheusText.header(
            "assent_http_request_duration_seconds", "histogram", "Time from the request line to the last byte of the response.")
        let histograms = snapshot.durations.sorted { ($0.key.route, $0.key.method) < ($1.key.route, $1.key.method) }
        for (key, histogram) in histograms {
            text += histogram.series(
                "assent_http_request_duration_seconds", labels: [("method", key.method), ("route", key.route)])
        }

        text += PrometheusText.gauge("assent_http_open_connections", "Open HTTP connections.", "\(openConnections)")
        text += PrometheusText.gauge(
            "assent_http_requests_in_flight", "HTTP requests received but not yet finished.", "\(requestsInFlight)")
        text += PrometheusText.gauge("assent_websocket_connections", "Open WebSocket connections.", "\(openWebSockets)")
        return text
    }

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]

    /// `method` when it is a standard method, otherwise `OTHER`.
    static func normalizedMethod(_ method: String) -> String {
        knownMethods.contains(method) ? method : "OTHER"
    }

    /// A quoted label value with `\`, `"` and newline escaped.
    static func label(_ value: String) -> String { PrometheusText.quoted(value) }

    /// A sample value: integers without a fraction, other numbers as Swift prints them.
    static func number(_ value: Double) -> String { PrometheusText.number(value) }
}
