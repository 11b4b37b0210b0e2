import AssentServerCore
import Foundation
import AssentSync

/// A fixed-size pool of PostgreSQL connections. Each pooled connection has its own serial dispatch queue, and every
/// query on it runs there: libpq blocks, and blocking belongs on those threads, never on Swift's cooperative pool.
/// Connections are opened on first need and replaced when the server dropped them; callers beyond the pool's size
/// wait (asynchronously) for one to come back.
final class PostgresPool: Sendable {
    /// A pool slot: its queue, and the connection only that queue touches.
    private final class Slot: @unchecked Sendable {
        let queue: DispatchQueue
        var connection: PostgresConnection?
        init(index: Int) { queue = DispatchQueue(label: "assent-postgres-\(index)") }
    }

    private struct State {
        var idle: [Slot] = []
        var opened = 0
        var waiters: [CheckedContinuation<Slot, any Error>] = []
        var closed = false
    }

    /// The server's URL.
    let url: String
    /// The most connections open at once.
    let size: Int
    /// Counts every round trip of the pool's connections.
    let roundTrips = PostgresRoundTrips()
    private let state = AssentLock(State())

    init(url: String, size: Int) {
        self.url = url
        self.size = max(1, size)
    }

    /// Runs `body` with a connection, on that connection's queue. A connection the server dropped (a restart, a
    /// failover, an idle timeout) is replaced; when `body` found it dead before doing anything
    /// (``PostgresConnectionLost``) — or `idempotent` work found it dead at all — it runs once more on a new one.
    func withConnection<T: Sendable>(
        idempotent: Bool = false, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let slot = try await acquire()
        defer { release(slot) }
        let url = self.url
        let roundTrips = self.roundTrips
        return try await withCheckedThrowingContinuation { continuation in
            slot.queue.async {
                continuation.resume(with: Result {
                    var attempt = 0
                    while true {
                        attempt += 1
                        if slot.connection?.isHealthy != true {
                            slot.connection = nil
                            slot.connection = try PostgresConnection(url: url, roundTrips: roundTrips)
                        }
                        let connection = slot.connection!
                        do {
                            return try body(connection)
                        } catch {
                            let lost = error is PostgresConnectionLost || (idempotent && !connection.isHealthy)
                            guard lost, attempt == 1 else {
                                if let lost = error as? PostgresConnectionLost { throw lost.underlying }
                                throw error
                            }
                        }
                    }
                })
            }
        }
    }

    /// Runs `body` inside `BEGIN` … `COMMIT` (READ COMMITTED: each operation takes the row locks or makes the
    /// conditional updates it needs). A serialization failure or deadlock (``StoreError/Code/busy``), or a
    /// ``StoreRetry`` thrown by `body`, rolls back and runs it again, a few times.
    /// The statement `afterCommit` names for the value (if any) then runs right after the commit, outside the
    /// transaction, in the commit's round trip; its errors are ignored.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T,
        afterCommit: (@Sendable (T) -> (sql: SQL, values: [StoreValue])?)? = nil
    ) async throws -> T {
        try await withConnection { connection in
            var attempt = 0
            while true {
                attempt += 1
                // BEGIN travels with the first statement; a connection found dead on that first round trip
                // throws ``PostgresConnectionLost`` (nothing was committed), and the pool runs it all again.
                connection.begin()
                do {
                    let value = try body(connection)
                    if let then = afterCommit?(value) {
                        try connection.commit(then: then.sql.postgres, then.values)
                    } else {
                        try connection.finish(commit: true)
                    }
                    return value
                } catch {
                    // Committed with its last statement, then failed: it stands, and is not run again.
                    if connection.committed { throw error }
                    if connection.isHealthy, connection.inTransaction || connection.beginPending {
                        try? connection.finish(commit: false)
                    }
                    if error is PostgresConnectionLost { throw error }
                    let retry = error is StoreRetry || (error as? StoreError)?.code == .busy
                    if retry, attempt < 8, connection.isHealthy { continue }
                    if error is StoreRetry { throw StoreError(.busy, "gave up after \(attempt) attempts") }
                    throw error
                }
            }
        }
    }

    private func acquire() async throws -> Slot {
        enum Next { case closed, ready(Slot), open(Int), wait }
        let size = self.size
        let next = state.withLock { state -> Next in
            if state.closed { return .closed }
            if let slot = state.idle.popLast() { return .ready(slot) }
            if state.opened < size { state.opened += 1; return .open(state.opened) }
            return .wait
        }
        switch next {
        case .closed: throw StoreError(.closed, "the store is closed")
        case .ready(let slot): return slot
        case .open(let index): return Slot(index: index)
        case .wait:
            return try await withCheckedThrowingContinuation { continuation in
                let closed = state.withLock { state -> Bool in
                    if state.closed { return true }
                    if let slot = state.idle.popLast() {
                        continuation.resume(returning: slot)
                    } else {
                        state.waiters.append(continuation)
                    }
                    return false
                }
                if closed { continuation.resume(throwing: StoreError(.closed, "the store is closed")) }
            }
        }
    }

    private func release(_ slot: Slot) {
        let waiter = state.withLock { state -> CheckedContinuation<Slot, any Error>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(slot)
            return nil
        }
        waiter?.resume(returning: slot)
    }

    /// Refuses new work and drops idle connections; in-flight work finishes on its own.
    func close() {
        let waiters = state.withLock { state -> [CheckedContinuation<Slot, any Error>] in
            state.closed = true
            let idle = state.idle
            state.idle.removeAll()
            for slot in idle { slot.queue.sync { slot.connection = nil } }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume(throwing: StoreError(.closed, "the store is closed")) }
    }
}
