@testable import AssentServerCore
import AssentLog
import Testing

/// The domain series as `/metrics` renders them: names and types by Prometheus conventions, every fixed label set
/// present from the start, counts moving with the events, a cumulative store latency histogram, and gauges only once
/// sampled.
@Suite struct DomainMetricsTests {
    @Test func `a fresh set renders every fixed-label counter at 0 and no outbox gauge yet`() {
        let text = DomainMetrics().prometheusText()
        for kind in ["push", "qr"] {
            for outcome in ["started", "approved", "denied", "expired"] {
                #expect(text.contains("assent_challenges_total{kind=\"\(kind)\",outcome=\"\(outcome)\"} 0\n"))
            }
        }
        for result in ["valid", "invalid", "blocked"] {
            #expect(text.contains("assent_powerauth_verifications_total{result=\"\(result)\"} 0\n"))
        }
        for rule in RateLimitRule.allCases {
            #expect(text.contains("assent_rate_limited_requests_total{class=\"\(rule.rawValue)\"} 0\n"))
        }
        #expect(text.contains("# TYPE assent_challenges_total counter\n"))
        #expect(text.contains("# TYPE assent_push_deliveries_total counter\n"))
        #expect(text.contains("# TYPE assent_store_operation_duration_seconds histogram\n"))
        #expect(!text.contains("assent_webhook_outbox_depth"))
        #expect(!text.contains("tenant=") && !text.contains("tenant_id="), "no series carries a tenant label")
    }

    @Test func `events move their counters and nothing else`() {
        let metrics = DomainMetrics()
        metrics.challenge(.push, .started)
        metrics.challenge(.push, .started)
        metrics.challenge(.push, .approved)
        metrics.challenge(.qrCode, .expired, count: 3)
        metrics.challenge(.qrCode, .denied, count: 0)
        metrics.pushDelivery(.apns, .delivered)
        metrics.pushDelivery(.fcm, .staleToken)
        metrics.powerAuthVerification(.invalid)
        metrics.rateLimited(.claimKey)
        let text = metrics.prometheusText()
        #expect(text.contains("assent_challenges_total{kind=\"push\",outcome=\"started\"} 2\n"))
        #expect(text.contains("assent_challenges_total{kind=\"push\",outcome=\"approved\"} 1\n"))
        #expect(text.contains("assent_challenges_total{kind=\"push\",outcome=\"denied\"} 0\n"))
        #expect(text.contains("assent_challenges_total{kind=\"qr\",outcome=\"expired\"} 3\n"))
        #expect(text.contains("assent_challenges_total{kind=\"qr\",outcome=\"denied\"} 0\n"))
        #expect(text.contains("assent_push_deliveries_total{provider=\"apns\",result=\"delivered\"} 1\n"))
        #expect(text.contains("assent_push_deliveries_total{provider=\"fcm\",result=\"stale_token\"} 1\n"))
        #expect(text.contains("assent_powerauth_verifications_total{result=\"invalid\"} 1\n"))
        #expect(text.contains("assent_rate_limited_requests_total{class=\"claim-key\"} 1\n"))
        #expect(text.contains("assent_rate_limited_requests_total{class=\"nonce-key\"} 0\n"))
        #expect(metrics.challengeCount(.push, .started) == 2)
    }

    @Test func `store latency is a cumulative histogram per operation`() {
        let metrics = DomainMetrics()
        metrics.storeOperation("trackAction", seconds: 0.0002)
        metrics.storeOperation("trackAction", seconds: 0.003)
        metrics.storeOperation("trackAction", seconds: 30)
        let text = metrics.prometheusText()
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("assent_store_operation_duration_seconds") }
        #expect(lines.contains("assent_store_operation_duration_seconds_bucket{operation=\"trackAction\",le=\"0.0001\"} 0"))
        #expect(lines.contains("assent_store_operation_duration_seconds_bucket{operation=\"trackAction\",le=\"0.00025\"} 1"))
        #expect(lines.contains("assent_store_operation_duration_seconds_bucket{operation=\"trackAction\",le=\"0.005\"} 2"))
        #expect(lines.contains("assent_store_operation_duration_seconds_bucket{operation=\"trackAction\",le=\"2.5\"} 2"))
        #expect(lines.contains("assent_store_operation_duration_seconds_bucket{operation=\"trackAction\",le=\"+Inf\"} 3"))
        #expect(lines.contains("assent_store_operation_duration_seconds_count{operation=\"trackAction\"} 3"))
        #expect(lines.contains("assent_store_operation_duration_seconds_sum{operation=\"trackAction\"} 30.0032"))
        // Buckets never decrease.
        let counts = lines.filter { $0.contains("_bucket") }.map { Int($0.split(separator: " ").last!)! }
        #expect(counts == counts.sorted())
    }

    @Test func `the outbox gauges appear once sampled`() {
        let metrics = DomainMetrics()
        metrics.webhookOutbox(depth: 7, oldestAgeSeconds: 12.5)
        let text = metrics.prometheusText()
        #expect(text.contains("# TYPE assent_webhook_outbox_depth gauge\nassent_webhook_outbox_depth 7\n"))
        #expect(text.contains("# TYPE assent_webhook_outbox_oldest_age_seconds gauge\nassent_webhook_outbox_oldest_age_seconds 12.5\n"))
    }

    @Test func `label values are escaped`() {
        #expect(PrometheusText.quoted("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }
}
