/// A fixed-size log-linear latency histogram in nanoseconds (HdrHistogram-style).
///
/// Values below 128 ns are exact; above that each power of two is split into 128
/// buckets, so a reported percentile is within 0.8 % of the true sample. Recording
/// never allocates, and histograms from different threads merge by addition.
/// `min`, `max` and the sum are exact.
struct LatencyHistogram: Sendable, Equatable {
    private static let subBucketBits = 7
    private static let subBucketCount = 1 << subBucketBits
    private static let bucketCount = (64 - subBucketBits + 1) * subBucketCount

    private var counts: [UInt64]
    private(set) var count: UInt64 = 0
    private(set) var sum: UInt64 = 0
    private(set) var min: UInt64 = .max
    private(set) var max: UInt64 = 0

    init() {
        counts = [UInt64](repeating: 0, count: Self.bucketCount)
    }

    mutating func record(_ nanoseconds: UInt64) {
        counts[Self.index(of: nanoseconds)] &+= 1
        count &+= 1
        sum &+= nanoseconds
        if nanoseconds < min { min = nanoseconds }
        if nanoseconds > max { max = nanoseconds }
    }

    mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        for index in counts.indices where other.counts[index] != 0 {
            counts[index] &+= other.counts[index]
        }
        count &+= other.count
        sum &+= other.sum
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    /// The latency at quantile `q` (0...1) in nanoseconds, or nil when empty.
    func value(atQuantile q: Double) -> UInt64? {
        guard count > 0 else { return nil }
        if q >= 1 { return max }
        let rank = Swift.max(1, UInt64((q * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for index in counts.indices where counts[index] != 0 {
            seen &+= counts[index]
            if seen >= rank {
                let (low, width) = Self.bucket(at: index)
                let middle = low &+ (width &- 1) / 2
                return Swift.min(Swift.max(middle, min), max)
            }
        }
        return max
    }

    /// Mean latency in nanoseconds, or nil when empty.
    var mean: Double? {
        count > 0 ? Double(sum) / Double(count) : nil
    }

    static func index(of value: UInt64) -> Int {
        if value < UInt64(subBucketCount) { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let shift = exponent - subBucketBits
        let subBucket = Int(truncatingIfNeeded: value >> UInt64(shift))
        return (shift + 1) * subBucketCount + (subBucket - subBucketCount)
    }

    /// The lowest value and the width of bucket `index`.
    static func bucket(at index: Int) -> (low: UInt64, width: UInt64) {
        if index < subBucketCount { return (UInt64(index), 1) }
        let shift = index / subBucketCount - 1
        let subBucket = UInt64(index % subBucketCount + subBucketCount)
        return (subBucket << UInt64(shift), 1 << UInt64(shift))
    }
}
