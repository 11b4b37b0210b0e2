#if TSAN_LOCKS
import Glibc

/// The ThreadSanitizer build's storage: a `pthread_mutex_t` and the value it guards, both in memory of their own that
/// never moves. The value is reached through its pointer, not as a stored property: Swift's access markers on a
/// property `inout` are reported by ThreadSanitizer as "Swift access race" even under the pthread mutex (seen with a
/// `Void` value), while plain loads and stores under the mutex are ordered by it as they should be.
final class PthreadLockStorage<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ initialValue: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
#endif
