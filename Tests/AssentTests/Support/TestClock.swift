import Assent
import Synchronization

/// A clock the test moves by hand; nothing ever sleeps.
final class TestClock: Sendable {
    private let now: Mutex<Int64>

    init(unixSeconds: Int64 = 1_796_018_555) { now = Mutex(unixSeconds * 1000) }

    /// The SDK's view of this clock.
    var clock: AssentClock { AssentClock { [self] in now.withLock { $0 } } }

    /// Moves time forward by `seconds`.
    func advance(seconds: Double) { now.withLock { $0 += Int64(seconds * 1000) } }
}
