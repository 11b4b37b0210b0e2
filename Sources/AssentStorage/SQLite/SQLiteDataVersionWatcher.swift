import AssentServerCore
import Foundation
import Synchronization

/// Watches an SQLite file for commits made through any other connection — another process such as the `assent` CLI,
/// or this process's own writer — by polling `PRAGMA data_version` on a query-only connection of its own, on a thread
/// of its own, every ``TenantChangeBounds/pollInterval``; calls `changed` when the value moves, and at the first
/// poll. The pragma reads
/// only the WAL index in shared memory, so a poll costs microseconds and never touches the file's pages. A failing
/// connection is reopened at the next poll, and `changed` is called then too (a commit may have been missed).
final class SQLiteDataVersionWatcher: Sendable {
    private let path: String
    private let changed: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)

    init(path: String, changed: @escaping @Sendable () -> Void) {
        self.path = path
        self.changed = changed
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "assent-sqlite-watch"
        thread.start()
    }

    /// Stops within one poll interval.
    func stop() { stopped.store(true, ordering: .relaxed) }

    private func run() {
        let interval = TenantChangeBounds.pollInterval / .seconds(1)
        var connection: SQLiteConnection?
        var seen: Int64?
        while !stopped.load(ordering: .relaxed) {
            do {
                if connection == nil {
                    let opened = try SQLiteConnection(path: path)
                    try opened.execute("PRAGMA query_only = 1")
                    connection = opened
                }
                let version = try connection?.queryOne("PRAGMA data_version") { $0.int64(0) }
                // The first poll (and the first after a reopen) clears too: a commit between the cache's last read
                // and this baseline would otherwise go unseen.
                if seen == nil || version != seen { changed() }
                seen = version
            } catch {
                connection = nil
                seen = nil
                changed()
            }
            Thread.sleep(forTimeInterval: interval)
        }
    }
}
