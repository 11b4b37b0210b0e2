import Testing
@testable import assent_bench

@Suite struct LatencyHistogramTests {
    @Test func bucketIndexRoundTripsWithinOnePercent() {
        var value: UInt64 = 1
        while value < UInt64(1) << 62 {
            let (low, width) = LatencyHistogram.bucket(at: LatencyHistogram.index(of: value))
            #expect(low <= value && value < low + width)
            #expect(Double(width) <= max(1, Double(value) / 128))
            value = value * 3 / 2 + 1
        }
        #expect(LatencyHistogram.index(of: .max) == (64 - 7 + 1) * 128 - 1)
    }

    @Test func percentilesOfAUniformSpreadAreWithinBucketPrecision() {
        var histogram = LatencyHistogram()
        for micro in 1...10_000 { histogram.record(UInt64(micro) * 1_000) }  // 1 µs ... 10 ms
        func near(_ q: Double, _ expected: Double) -> Bool {
            let value = Double(histogram.value(atQuantile: q)!)
            return abs(value - expected) / expected < 0.01
        }
        #expect(near(0.5, 5_000_000))
        #expect(near(0.9, 9_000_000))
        #expect(near(0.99, 9_900_000))
        #expect(histogram.value(atQuantile: 1) == 10_000_000)
        #expect(histogram.min == 1_000)
        #expect(histogram.count == 10_000)
    }

    @Test func mergingEqualsRecordingEverythingInOne() {
        var a = LatencyHistogram(), b = LatencyHistogram(), all = LatencyHistogram()
        for value in stride(from: UInt64(100), to: 5_000_000, by: 7_919) {
            if value % 2 == 0 { a.record(value) } else { b.record(value) }
            all.record(value)
        }
        a.merge(b)
        #expect(a == all)
    }

    @Test func emptyHistogramHasNoPercentiles() {
        let histogram = LatencyHistogram()
        #expect(histogram.value(atQuantile: 0.5) == nil)
        #expect(histogram.mean == nil)
    }
}
