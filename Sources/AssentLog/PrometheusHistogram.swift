/// One series of a Prometheus histogram (the HTTP server's request latencies, the domain's store latencies): how many
/// observations fell in each bucket, their count and their sum, written out by ``series(_:labels:)``.
package struct PrometheusHistogram: Sendable {
    /// Upper bounds of the buckets, ascending; `+Inf` is implied.
    package let bounds: [Double]
    /// Observations per bucket: `buckets[i]` counts those above `bounds[i - 1]` and at most `bounds[i]`.
    package private(set) var buckets: [Int]
    /// Observations in all, those above the last bound included.
    package private(set) var count = 0
    /// The sum of the observations.
    package private(set) var sum = 0.0

    /// An empty series over `bounds`.
    package init(bounds: [Double]) {
        self.bounds = bounds
        buckets = [Int](repeating: 0, count: bounds.count)
    }

    /// Counts `value` in the first bucket whose bound it does not exceed (in none but `+Inf` above the last bound).
    package mutating func observe(_ value: Double) {
        if let bucket = bounds.firstIndex(where: { value <= $0 }) { buckets[bucket] += 1 }
        count += 1
        sum += value
    }

    /// The series' samples of the family `name` (whose header is written once, before its first series): a cumulative
    /// `_bucket` sample per bound and `+Inf`, then `_sum` and `_count`, each with `labels`.
    package func series(_ name: String, labels: [(String, String)]) -> String {
        var text = ""
        var cumulative = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += buckets[index]
            let bucketLabels = PrometheusText.labels(labels + [("le", PrometheusText.number(bound))])
            text += name + "_bucket" + bucketLabels + " \(cumulative)\n"
        }
        text += name + "_bucket" + PrometheusText.labels(labels + [("le", "+Inf")]) + " \(count)\n"
        text += name + "_sum" + PrometheusText.labels(labels) + " \(PrometheusText.number(sum))\n"
        text += name + "_count" + PrometheusText.labels(labels) + " \(count)\n"
        return text
    }
}
