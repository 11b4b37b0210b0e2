import AssentSync
import Testing

/// AssentLock, the one lock every module uses: the same in the ordinary build (`Mutex` underneath) and under
/// `-DTSAN_LOCKS` (a pthread mutex), where `make sanitize-thread` also checks that ThreadSanitizer sees it.
@Suite struct AssentLockTests {
    private final class Counter: Sendable {
        let count = AssentLock(0)
        let order = AssentLock<[Int]>([])
        let gate = AssentLock(())
    }

    @Test("concurrent bodies each see the value the last one left, so no increment is lost")
    func concurrentIncrementsAreNeverLost() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        counter.gate.withLock { _ in }
                        let seen = counter.count.withLock { value -> Int in
                            value += 1
                            return value
                        }
                        counter.order.withLock { $0.append(seen * 8 + worker) }
                    }
                }
            }
        }
        #expect(counter.count.withLock { $0 } == 4000)
        #expect(Set(counter.order.withLock { $0 }.map { $0 / 8 }) == Set(1...4000))
    }

    private struct Refused: Error, Equatable {}

    @Test("a body that throws keeps what it changed, passes its error on and releases the lock")
    func aThrowingBodyReleasesTheLock() {
        let lock = AssentLock<[String]>([])
        #expect(throws: Refused.self) {
            try lock.withLock { (items: inout [String]) throws(Refused) -> Void in
                items.append("before the error")
                throw Refused()
            }
        }
        #expect(lock.withLock { $0 } == ["before the error"])
    }
}
