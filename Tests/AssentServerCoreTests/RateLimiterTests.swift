import AssentSync
import Testing
@testable import AssentServerCore

/// The token buckets behind `429 rate_limited`, on a clock moved by hand: nothing here sleeps.
@Suite struct RateLimiterTests {
    private final class Time: Sendable {
        private let seconds = AssentLock<Double>(1000)
        var now: @Sendable () -> Double { { self.seconds.withLock { $0 } } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    private func limiter(_ settings: String, time: Time, maxBuckets: Int = 1 << 16) -> RateLimiter {
        var policy = RateLimitPolicy()
        #expect(policy.apply(settings) == nil)
        return RateLimiter(policy: policy, maxBuckets: maxBuckets, now: time.now)
    }

    private func taken(_ limiter: RateLimiter, _ rule: RateLimitRule, _ subject: String) -> Bool {
        do {
            try limiter.take(rule, subject)
            return true
        } catch {
            return false
        }
    }

    /// The `Retry-After` seconds of the `rate_limited` refusal `take` throws, naming `rule` (nil if it passes).
    private func refusal(_ limiter: RateLimiter, _ rule: RateLimitRule, _ subject: String) -> Int? {
        do {
            try limiter.take(rule, subject)
            return nil
        } catch {
            #expect(error.code == .rateLimited)
            #expect(error.reason.contains("(\(rule.rawValue))"))
            return error.retryAfterSeconds
        }
    }

    @Test func `a burst of the limit's count passes, the next is refused with the seconds until a token is back`() {
        let time = Time()
        let limiter = limiter("claim-address=3/60s", time: time)
        for _ in 0..<3 { #expect(taken(limiter, .claimAddress, "192.0.2.1")) }
        #expect(refusal(limiter, .claimAddress, "192.0.2.1") == 20)
        time.advance(19.5)
        #expect(refusal(limiter, .claimAddress, "192.0.2.1") == 1)
        time.advance(0.5)
        #expect(taken(limiter, .claimAddress, "192.0.2.1"))
        #expect(!taken(limiter, .claimAddress, "192.0.2.1"))
    }

    @Test func `an idle bucket refills to its count and no further`() {
        let time = Time()
        let limiter = limiter("vault-unlock-activation=2/10s", time: time)
        #expect(taken(limiter, .vaultUnlockActivation, "A"))
        #expect(taken(limiter, .vaultUnlockActivation, "A"))
        time.advance(3600)
        #expect(taken(limiter, .vaultUnlockActivation, "A"))
        #expect(taken(limiter, .vaultUnlockActivation, "A"))
        #expect(!taken(limiter, .vaultUnlockActivation, "A"))
    }

    @Test func `subjects and rules have buckets of their own`() {
        let time = Time()
        let limiter = limiter("*=1/60s", time: time)
        #expect(taken(limiter, .anonymousQRStartAddress, "192.0.2.1"))
        #expect(!taken(limiter, .anonymousQRStartAddress, "192.0.2.1"))
        #expect(taken(limiter, .anonymousQRStartAddress, "192.0.2.2"))
        #expect(taken(limiter, .anonymousQRStartTenant, "192.0.2.1"))
    }

    @Test func `a refund gives back the token a success did not spend, never above the count`() {
        let time = Time()
        let limiter = limiter("failed-verification-activation=2/600s", time: time)
        for _ in 0..<10 {
            #expect(taken(limiter, .failedVerificationActivation, "A"))
            limiter.refund(.failedVerificationActivation, "A")
        }
        limiter.refund(.failedVerificationActivation, "A")
        #expect(taken(limiter, .failedVerificationActivation, "A"))
        #expect(taken(limiter, .failedVerificationActivation, "A"))
        #expect(!taken(limiter, .failedVerificationActivation, "A"))
    }

    @Test func `turned off, nothing is limited and nothing is kept`() {
        var policy = RateLimitPolicy()
        policy.enabled = false
        let limiter = RateLimiter(policy: policy, now: Time().now)
        for _ in 0..<10_000 { #expect(taken(limiter, .webSocketAddress, "192.0.2.1")) }
        #expect(limiter.bucketCount == 0)
    }

    @Test func `a flood of distinct keys keeps memory bounded, dropping full buckets before spent ones`() {
        let time = Time()
        let limiter = limiter("nonce-key=5/1s,nonce-address=1/20h", time: time, maxBuckets: 1024)
        // A spent bucket, then a flood of keys each used once (each bucket is full again before the next key comes).
        #expect(taken(limiter, .nonceAddress, "192.0.2.1"))
        for index in 0..<100_000 {
            #expect(taken(limiter, .nonceKey, "key-\(index)"))
            time.advance(0.1)
        }
        #expect(limiter.bucketCount <= 1024)
        // Refilled buckets went first: the spent address is still limited.
        #expect(!taken(limiter, .nonceAddress, "192.0.2.1"))
    }

    @Test func `when every bucket is spent, the least recently used go and the count stays bounded`() {
        let time = Time()
        let limiter = limiter("claim-key=1/3600s", time: time, maxBuckets: 256)
        for index in 0..<10_000 {
            #expect(taken(limiter, .claimKey, "key-\(index)"))
            time.advance(0.001)
        }
        #expect(limiter.bucketCount <= 256)
        #expect(!taken(limiter, .claimKey, "key-9999"))
    }

    @Test func `limits are read as COUNT/PERIOD with an optional unit`() throws {
        #expect(RateLimit(parsing: "30/60") == RateLimit(count: 30, periodSeconds: 60))
        #expect(RateLimit(parsing: "30/1m") == RateLimit(count: 30, periodSeconds: 60))
        #expect(RateLimit(parsing: "10/2h") == RateLimit(count: 10, periodSeconds: 7200))
        #expect(RateLimit(parsing: "5/0.5s") == RateLimit(count: 5, periodSeconds: 0.5))
        for bad in ["", "30", "0/60", "-1/60", "30/0", "30/x", "30/60d", "x/60", "30/60/1"] {
            #expect(RateLimit(parsing: bad) == nil, "\(bad)")
        }
        var policy = RateLimitPolicy()
        #expect(policy.apply("*=100/1s, claim-key=2/1m") == nil)
        #expect(policy.limit(.claimKey) == RateLimit(count: 2, periodSeconds: 60))
        #expect(policy.limit(.webSocketAddress) == RateLimit(count: 100, periodSeconds: 1))
        #expect(policy.apply("claim-key=2/1m,nope=1/1s") == "nope=1/1s")
        #expect(RateLimitPolicy().limit(.anonymousQRStartAddress) == RateLimitRule.anonymousQRStartAddress.defaultLimit)
    }
}
