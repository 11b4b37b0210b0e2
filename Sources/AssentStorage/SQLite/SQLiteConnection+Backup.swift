import AssentServerCore
internal import CSQLite
import Foundation

extension SQLiteConnection {
    /// Copies this connection's database into `destination` with SQLite's online backup API, while other
    /// connections (a serving `assentd`) keep reading and writing it.
    ///
    /// The copy is made in one step (`sqlite3_backup_step(-1)`), which is one read transaction on this connection:
    /// in WAL mode the writer is never blocked, and the copy is the database as of the moment that transaction began
    /// — every commit acknowledged before it is in, none after it. (Stepping in pieces would let a commit from
    /// another connection restart the copy, over and over under a steady write load.) The destination is left in
    /// rollback-journal mode, so the copy is one self-contained file with no `-wal` beside it.
    func backup(into destination: String) throws {
        let target = try SQLiteConnection(path: destination)
        let backup = sqlite3_backup_init(target.handle, "main", handle, "main")
        guard let backup else {
            throw target.error(sqlite3_errcode(target.handle), "backup of the database into \(destination): \(target.errorMessage)")
        }
        var rc = sqlite3_backup_step(backup, -1)
        var attempts = 0
        while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && attempts < 100 {
            // Another connection holds a lock the copy needs; the busy handler does not cover the backup API.
            attempts += 1
            usleep(50_000)
            rc = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else {
            throw target.error(rc, "backup of the database into \(destination): \(String(cString: sqlite3_errstr(rc)))")
        }
        guard finished == SQLITE_OK else {
            throw target.error(finished, "finishing the backup into \(destination): \(target.errorMessage)")
        }
        try target.execute("PRAGMA journal_mode = DELETE")
    }
}
