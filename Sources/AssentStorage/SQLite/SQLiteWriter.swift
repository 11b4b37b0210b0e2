import AssentServerCore
import Foundation
import AssentSync

/// The one writing connection, run by its own thread with **group commit**: every write waiting when the thread
/// comes round runs inside one transaction (each in its own savepoint, so one failure does not undo the others),
/// then a single `COMMIT` makes them all durable with one fsync, and only then does each caller get its answer.
/// A caller therefore never hears "done" before its change is on disk, and under load hundreds of writes share
/// one fsync instead of queueing for one each.
final class SQLiteWriter: Sendable {
    private struct Job: @unchecked Sendable {
        /// Runs the change; returns what to do once the batch is durable.
        let work: (SQLiteConnection) throws -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private struct State {
        var jobs: [Job] = []
        var closed = false
    }

    private let connection: SQLiteConnection
    private let state = AssentLock(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let maxBatch: Int

    init(connection: SQLiteConnection, maxBatch: Int = 1024) {
        self.connection = connection
        self.maxBatch = maxBatch
        let thread = Thread { [self] in self.run() }
        thread.name = "assent-sqlite-writer"
        thread.start()
    }

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
            let accepted = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.jobs.append(job)
                return true
            }
            if accepted {
                wake.signal()
            } else {
                continuation.resume(throwing: StoreError(.closed, "the store is closed"))
            }
        }
    }

    /// Finishes every queued write, then stops the thread.
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        while true {
            wake.wait()
            while true {
                let (batch, closed) = state.withLock { state -> ([Job], Bool) in
                    let count = min(state.jobs.count, maxBatch)
                    let batch = Array(state.jobs.prefix(count))
                    state.jobs.removeFirst(count)
                    return (batch, state.closed)
                }
                if batch.isEmpty {
                    if closed {
                        finished.signal()
                        return
                    }
                    break
                }
                commit(batch)
            }
        }
    }

    private func commit(_ batch: [Job]) {
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
