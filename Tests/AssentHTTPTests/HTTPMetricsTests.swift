import Testing
@testable import AssentHTTP

@Suite struct HTTPMetricsTests {
    @Test func exposesCountersHistogramAndGaugesWithHelpAndType() {
        let metrics = HTTPMetrics()
        metrics.recordRequest(method: "GET", route: "/v1/users/{userId}", status: 200, durationSeconds: 0.0004)
        metrics.recordRequest(method: "GET", route: "/v1/users/{userId}", status: 200, durationSeconds: 0.003)
        metrics.recordRequest(method: "GET", route: "/v1/users/{userId}", status: 404, durationSeconds: 20)
        metrics.recordRequest(method: "BREW", route: "unmatched", status: 405, durationSeconds: 0.01)
        metrics.connectionsChanged(by: 3)
        metrics.connectionsChanged(by: -1)
        metrics.requestsInFlightChanged(by: 1)
        let text = metrics.prometheusText()
        let lines = Set(text.split(separator: "\n").map(String.init))

        for family in ["assent_http_requests_total counter", "assent_http_request_duration_seconds histogram",
                       "assent_http_open_connections gauge", "assent_http_requests_in_flight gauge"] {
            #expect(lines.contains("# TYPE \(family)"))
            #expect(lines.contains { $0.hasPrefix("# HELP \(family.split(separator: " ")[0]) ") })
        }
        #expect(lines.contains(#"assent_http_requests_total{method="GET",route="/v1/users/{userId}",status="200"} 2"#))
        #expect(lines.contains(#"assent_http_requests_total{method="GET",route="/v1/users/{userId}",status="404"} 1"#))
        #expect(lines.contains(#"assent_http_requests_total{method="OTHER",route="unmatched",status="405"} 1"#))
        let labels = #"method="GET",route="/v1/users/{userId}""#
        #expect(lines.contains("assent_http_request_duration_seconds_bucket{\(labels),le=\"0.0005\"} 1"))
        #expect(lines.contains("assent_http_request_duration_seconds_bucket{\(labels),le=\"0.0025\"} 1"))
        #expect(lines.contains("assent_http_request_duration_seconds_bucket{\(labels),le=\"0.005\"} 2"))
        #expect(lines.contains("assent_http_request_duration_seconds_bucket{\(labels),le=\"10\"} 2"))
        #expect(lines.contains("assent_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} 3"))
        #expect(lines.contains("assent_http_request_duration_seconds_count{\(labels)} 3"))
        #expect(lines.contains { $0.hasPrefix("assent_http_request_duration_seconds_sum{\(labels)} 20.003") })
        #expect(lines.contains("assent_http_open_connections 2"))
        #expect(lines.contains("assent_http_requests_in_flight 1"))
        #expect(text.hasSuffix("\n"))
    }

    @Test func escapesLabelValues() {
        #expect(HTTPMetrics.label("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }
}
