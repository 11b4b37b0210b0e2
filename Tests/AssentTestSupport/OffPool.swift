import Foundation

/// Runs blocking or CPU-heavy test work (processes, libpq, key derivation) on a thread of its own, never on Swift's
/// cooperative pool: on two cores that pool has two threads, and the HTTP tests running in parallel answer their
/// requests on it, so holding one for seconds would starve those servers into time-outs.
package func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
