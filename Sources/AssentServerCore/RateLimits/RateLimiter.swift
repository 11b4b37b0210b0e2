import AssentLog
import AssentSync

/// Token buckets per rule and subject (a client address, tenant, user, credential key or activation), cheap enough to
/// ask on every request and bounded in memory whatever a client sends.
///
/// The buckets are spread over ``shardCount`` shards by a hash of their key (seeded per process, so nobody can aim
/// keys at one shard), each behind its own lock, so concurrent requests rarely wait on each other. A shard holds at
/// most `maxBuckets / shardCount` buckets. When a new key finds its shard full, buckets that have refilled completely
/// are dropped first (forgetting them changes nothing); if that frees less than an eighth of the shard, the least
/// recently used buckets go until it does. So a flood of distinct keys costs a bounded amount of memory, and at worst
/// makes the limiter forget some partly spent buckets: the flood is still limited per address and per tenant.
///
/// The clock is injected (monotonic seconds); tests drive it by hand. Limits are per instance: several `assentd`
/// behind one load balancer each keep their own buckets.
package final class RateLimiter: Sendable {
    /// Shards the buckets are spread over.
    package static let shardCount = 16

    private struct Key: Hashable, Sendable {
        var rule: RateLimitRule
        var subject: String
    }

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Double
    }

    /// One lock and the buckets behind it.
    private final class Shard: Sendable {
        let buckets = AssentLock<[Key: Bucket]>([:])
    }

    private let policy: RateLimitPolicy
    private let shards: [Shard]
    private let bucketsPerShard: Int
    private let now: @Sendable () -> Double
    /// Counts refused requests by rule.
    private let metrics: DomainMetrics?

    /// A limiter applying `policy`, holding at most `maxBuckets` buckets; `now` returns monotonic seconds; refusals are
    /// counted into `metrics` when given.
    package init(
        policy: RateLimitPolicy, maxBuckets: Int = 1 << 16,
        now: @escaping @Sendable () -> Double = WarningLimiter.monotonicSeconds, metrics: DomainMetrics? = nil
    ) {
        self.metrics = metrics
        self.policy = policy
        self.now = now
        bucketsPerShard = max(8, maxBuckets / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Whether any limit applies.
    package var isEnabled: Bool { policy.enabled }

    /// Takes one token from the bucket of `rule` for `subject`, or throws when it is empty.
    package func take(_ rule: RateLimitRule, _ subject: String) throws(AssentError) {
        guard policy.enabled else { return }
        let limit = policy.limit(rule)
        let key = Key(rule: rule, subject: subject)
        let at = now()
        let wait: Double? = shard(key).buckets.withLock { buckets in
            var bucket = buckets[key].map { refilled($0, limit, at) } ?? Bucket(tokens: Double(limit.count), updated: at)
            if buckets[key] == nil, buckets.count >= bucketsPerShard { evict(&buckets, at) }
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return (1 - bucket.tokens) / limit.refillPerSecond
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return nil
        }
        if let wait {
            metrics?.rateLimited(rule)
            throw .rateLimited(rule, retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
    }

    /// Gives back a token taken with ``take(_:_:)`` for something that, in the end, did not count (a verification
    /// that succeeded, when only failures are limited).
    package func refund(_ rule: RateLimitRule, _ subject: String) {
        guard policy.enabled else { return }
        let limit = policy.limit(rule)
        let key = Key(rule: rule, subject: subject)
        let at = now()
        shard(key).buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return }
            var refunded = refilled(bucket, limit, at)
            refunded.tokens = min(Double(limit.count), refunded.tokens + 1)
            buckets[key] = refunded
        }
    }

    /// Buckets held now, across shards.
    package var bucketCount: Int { shards.reduce(0) { $0 + $1.buckets.withLock { $0.count } } }

    private func shard(_ key: Key) -> Shard {
        shards[Int(UInt(bitPattern: key.hashValue) % UInt(Self.shardCount))]
    }

    private func refilled(_ bucket: Bucket, _ limit: RateLimit, _ at: Double) -> Bucket {
        let elapsed = max(0, at - bucket.updated)
        return Bucket(tokens: min(Double(limit.count), bucket.tokens + elapsed * limit.refillPerSecond), updated: at)
    }

    /// Makes room in a full shard: drops buckets that are full again, then the least recently used down to 7/8.
    private func evict(_ buckets: inout [Key: Bucket], _ at: Double) {
        buckets = buckets.filter { key, bucket in
            refilled(bucket, policy.limit(key.rule), at).tokens < Double(policy.limit(key.rule).count)
        }
        let target = bucketsPerShard - bucketsPerShard / 8
        guard buckets.count > target else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count - target)
        for (key, _) in oldest { buckets.removeValue(forKey: key) }
    }
}
