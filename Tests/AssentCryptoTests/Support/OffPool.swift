import Foundation

/// Runs CPU-heavy test work on its own thread instead of a Swift concurrency thread. On two cores the cooperative
/// pool has two threads, and the HTTP tests running in parallel answer their requests on it: a test that holds one of
/// them for seconds of key derivation would starve those servers into time-outs.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
