#if !TSAN_LOCKS
import Synchronization
#endif

/// The lock Assent's code uses instead of `Synchronization.Mutex`: the same `withLock` shape, and `Mutex` itself
/// underneath in every ordinary build. Built with `-DTSAN_LOCKS` (`make sanitize`'s ThreadSanitizer run) it locks a
/// `pthread_mutex_t` instead, which ThreadSanitizer understands; it cannot see `Mutex`'s raw futex on Linux and would
/// report every body a `Mutex` protects as a race.
package struct AssentLock<Value: ~Copyable>: ~Copyable {
    #if TSAN_LOCKS
    private let storage: PthreadLockStorage<Value>

    package init(_ initialValue: consuming sending Value) {
        storage = PthreadLockStorage(initialValue)
    }

    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try storage.withLock(body)
    }
    #else
    private let mutex: Mutex<Value>

    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
    #endif
}

extension AssentLock: @unchecked Sendable where Value: ~Copyable {}
