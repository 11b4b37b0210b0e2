import AssentServerCore
import Foundation
import AssentSync

/// The one writing connection, run by its own thread with **group commit**: every write waiting when the thread
/// comes round runs inside one transaction (each in its own savepoint, so one failure does not undo the others),
/// then a single `COMMIT` makes them all durable with one fsync, and only then does each caller get its answer.
/// A caller therefore never hears "done" before its change is on disk, and under load hundreds of writes share
/// one fsync instead of queueing for one each.
///
/// The thread holds the queue, not the writer: once nobody holds the writer (its store closed or dropped), `deinit`
/// finishes the queued writes and ends the thread, so a store a test forgets to close does not leave a thread behind.
final class SQLiteWriter: Sendable {
    fileprivate struct Job: @unchecked Sendable {
        /// Runs the change; returns what to do once the batch is durable.
        let work: (SQLiteConnection) throws -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    fileprivate struct State {
        var jobs: [Job] = []
        var closed = false
    }

    /// What the writer's thread works on.
    final class Queue: Sendable {
        let connection: SQLiteConnection
        fileprivate let state = AssentLock(State())
        let wake = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let maxBatch: Int
        private let ended = AssentLock(false)

        /// Whether the thread has ended (set just before `close` hears of it).
        var hasEnded: Bool { ended.withLock { $0 } }

        func markEnded() { ended.withLock { $0 = true } }

        init(connection: SQLiteConnection, maxBatch: Int) {
            self.connection = connection
            self.maxBatch = maxBatch
        }
    }

    let queue: Queue

    init(connection: SQLiteConnection, maxBatch: Int = 1024) {
        let queue = Queue(connection: connection, maxBatch: maxBatch)
        self.queue = queue
        let thread = Thread { Self.run(queue) }
        thread.name = "assent-sqlite-writer"
        thread.start()
    }

    deinit { close() }

    /// Runs `body` in the next batch and returns its result once the batch is committed.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                work: { connection in
                    let value = try body(connection)
                    return { continuation.resume(returning: value) }
                },
                fail: { continuation.resume(throwing: $0) }
            )
            let accepted = queue.state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.jobs.append(job)
                return true
            }
            if accepted {
                queue.wake.signal()
            } else {
                continuation.resume(throwing: StoreError(.closed, "the store is closed"))
            }
        }
    }

    /// Finishes every queued write, then stops the thread.
    func close() {
        let first = queue.state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        queue.wake.signal()
        queue.finished.wait()
    }

    private static func run(_ queue: Queue) {
        while true {
            queue.wake.wait()
            while true {
                let (batch, closed) = queue.state.withLock { state -> ([Job], Bool) in
                    let count = min(state.jobs.count, queue.maxBatch)
                    let batch = Array(state.jobs.prefix(count))
                    state.jobs.removeFirst(count)
                    return (batch, state.closed)
                }
                if batch.isEmpty {
                    if closed {
                        queue.markEnded()
                        queue.finished.signal()
                        return
                    }
                    break
                }
                commit(batch, on: queue.connection)
            }
        }
    }

    private static func commit(_ batch: [Job], on connection: SQLiteConnection) {
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.fail(error) }
            return
        }
        var succeeded: [@Sendable () -> Void] = []
        var failed: [(Job, any Error)] = []
        succeeded.reserveCapacity(batch.count)
        for (index, job) in batch.enumerated() {
            // A failure that made SQLite abandon the whole transaction ends the batch: nothing of it is on disk,
            // so every caller hears the failure and no later job runs outside the transaction.
            if index > 0, connection.isAutocommit {
                let failure = StoreError(.queryFailed, "the transaction was rolled back by SQLite")
                batch.forEach { $0.fail(failure) }
                return
            }
            do {
                try connection.execute("SAVEPOINT job")
                do {
                    let done = try job.work(connection)
                    try connection.execute("RELEASE job")
                    succeeded.append(done)
                } catch {
                    try connection.execute("ROLLBACK TO job; RELEASE job")
                    failed.append((job, error))
                }
            } catch {
                failed.append((job, error))
            }
        }
        do {
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            // Nothing of this batch is on disk: every caller hears the failure.
            let failures = batch.map { ($0, error) }
            failures.forEach { $0.0.fail($0.1) }
            return
        }
        succeeded.forEach { $0() }
        failed.forEach { $0.0.fail($0.1) }
    }
}
