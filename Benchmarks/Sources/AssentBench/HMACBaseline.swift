import AssentCrypto
import Foundation
import Synchronization

/// Per-thread results of a parallel measurement.
final class ResultBox: Sendable {
    private let values: Mutex<[Double]>
    init(count: Int) { values = Mutex([Double](repeating: 0, count: count)) }
    func set(_ index: Int, _ value: Double) { values.withLock { $0[index] = value } }
    var sum: Double { values.withLock { $0.reduce(0, +) } }
}

/// `assent-bench --hmac-baseline`: the in-process cost of the HMAC work one verification's look-ahead does, to set
/// the server's figures against. Runs on one thread (and once on two).
///
/// Only AssentCrypto's public API is visible from this package, so the look-ahead's own HMAC (`PowerAuthHMAC`, one
/// reused digest context, `package` in AssentCrypto) is not timed alone: its cost per counter value is read off
/// `PowerAuthSignature.match` as the difference between distance 19 and distance 0, divided by 19.
enum HMACBaseline {
    /// HMACs per counter value tried for a `possession_knowledge` signature: HMAC(P, CTR), HMAC(K, CTR),
    /// HMAC(HMAC(K, CTR), ·) and the two component HMACs over DATA.
    static let hmacsPerCounterValue = 5

    static func run(seconds: Double) -> String {
        let key = SecureRandom.bytes(16)
        let counter = SecureRandom.bytes(16)
        let data = PowerAuthRequestData.normalized(
            method: "POST", uriID: PowerAuthBenchDevice.uriID, nonce: SecureRandom.bytes(16), body: PowerAuthBenchDevice.body,
            applicationSecret: Base64.encode(SecureRandom.bytes(16)))
        let libraryRate = rate(seconds: seconds) { _ = HMACSHA256.authenticate(counter, key: key) }
        let keys = PowerAuthSignatureKeys(possession: key, knowledge: SecureRandom.bytes(16))
        func matchRate(distance: Int) -> Double {
            let signature = (try? PowerAuthSignature.compute(
                type: .possessionKnowledge, keys: keys, counterData: PowerAuthCounter.advance(counter, by: distance), data: data)) ?? ""
            return rate(seconds: seconds) {
                _ = try? PowerAuthSignature.match(signature, type: .possessionKnowledge, keys: keys, counterData: counter, data: data)
            }
        }
        let match0 = matchRate(distance: 0)
        let match19 = matchRate(distance: 19)
        // The same look-ahead on two threads at once, as the server's two cores run it.
        let parallel = parallelRate(threads: 2, seconds: seconds) {
            let signature = (try? PowerAuthSignature.compute(
                type: .possessionKnowledge, keys: keys, counterData: PowerAuthCounter.advance(counter, by: 19), data: data)) ?? ""
            return { _ = try? PowerAuthSignature.match(signature, type: .possessionKnowledge, keys: keys, counterData: counter, data: data) }
        }
        // What one more counter value costs: the HMACs, one SHA-256 counter step and the compare (noise can make it 0).
        let perValue = max(0, 1 / match19 - 1 / match0) / 19
        return """
            HMAC-SHA256 (HMACSHA256, EVP_Q_mac), 16-byte message:  \(format(libraryRate))/s
            PowerAuthSignature.match in process (HMACs + SHA-256 counter steps + formatting), \(data.count)-byte DATA:
              distance 0:  \(format(match0))/s per core
              distance 19: \(format(match19))/s per core; on 2 threads at once: \(format(parallel))/s in all
              each counter value past the first (\(hmacsPerCounterValue) HMACs + 1 SHA-256 step + compare): \(micro(perValue)) µs
            """
    }

    private static func rate(seconds: Double, _ body: () -> Void) -> Double {
        var count = 0
        let start = MonotonicClock.now()
        let limit = UInt64(seconds * 1e9)
        while MonotonicClock.now() &- start < limit {
            for _ in 0..<100 { body() }
            count += 100
        }
        return Double(count) / (Double(MonotonicClock.now() &- start) / 1e9)
    }

    /// Runs `make()`'s closure on `threads` threads at once; the total rate.
    private static func parallelRate(threads: Int, seconds: Double, _ make: @escaping @Sendable () -> () -> Void) -> Double {
        let results = ResultBox(count: threads)
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            let thread = Thread {
                let body = make()
                results.set(index, rate(seconds: seconds, body))
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.sum
    }

    private static func format(_ value: Double) -> String {
        value >= 10_000 ? "\(Int(value / 1000))k" : String(Int(value))
    }

    private static func micro(_ seconds: Double) -> String {
        String(Double(Int(seconds * 1e7)) / 10)
    }
}
