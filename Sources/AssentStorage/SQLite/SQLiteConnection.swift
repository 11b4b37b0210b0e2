import AssentServerCore
internal import CSQLite
import Foundation

/// One SQLite connection. Owned by one thread at a time (the writer, or a reader checked out of the pool), which is
/// why it may cross threads; it must never be used from two at once.
final class SQLiteConnection: StoreConnection, @unchecked Sendable {
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating when `create`) the database at `path` with the given pragmas applied.
    init(path: String, readOnly: Bool = false) throws {
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(.openFailed, "cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(message)
            throw error(rc, text)
        }
    }

    /// A prepared statement for `sql`, reused across calls (bindings are cleared first). Text holding several
    /// statements (``SQL/chain(_:then:)``) is prepared as one chain of them, run in order.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var prepared: [OpaquePointer] = []
        do {
            try sql.withCString { text in
                var rest: UnsafePointer<CChar>? = text
                while let current = rest, current.pointee != 0 {
                    var raw: OpaquePointer?
                    let rc = sqlite3_prepare_v3(handle, current, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, &rest)
                    guard rc == SQLITE_OK else { throw error(rc, "prepare: \(errorMessage)") }
                    if let raw { prepared.append(raw) }  // none for trailing white space
                }
            }
        } catch {
            prepared.forEach { sqlite3_finalize($0) }
            throw error
        }
        guard !prepared.isEmpty else { throw StoreError(.queryFailed, "prepare: no statement in \(sql)") }
        let statement = SQLiteStatement(prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `values` and returns how many rows it (its last statement) changed.
    @discardableResult
    func update(_ sql: SQL, _ values: [StoreValue] = []) throws -> Int {
        let statement = try self.statement(sql.sqlite)
        try statement.start(values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps every row.
    func query<T>(_ sql: SQL, _ values: [StoreValue] = [], _ map: (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try self.statement(sql.sqlite)
        try statement.start(values)
        var rows: [T] = []
        while try statement.step() {
            rows.append(try map(SQLiteRow(statement: statement)))
        }
        return rows
    }

    /// Runs a query and maps its first row, if any.
    func queryOne<T>(_ sql: SQL, _ values: [StoreValue] = [], _ map: (SQLiteRow) throws -> T) throws -> T? {
        let statement = try self.statement(sql.sqlite)
        try statement.start(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try map(SQLiteRow(statement: statement))
    }

    /// Nothing to take: the single writer already runs one transaction at a time.
    func lock(_ key: String) {}

    /// Runs a query and returns its column names and every row as typed values (for copying a whole table).
    func table(_ sql: String) throws -> (columns: [String], rows: [[StoreValue]]) {
        let statement = try self.statement(sql)
        try statement.start([])
        defer { statement.reset() }
        let columns = statement.columnNames
        var rows: [[StoreValue]] = []
        while try statement.step() {
            rows.append((0..<Int32(columns.count)).map(statement.value))
        }
        return (columns, rows)
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// True outside a transaction — also after SQLite rolled one back by itself (disk full, I/O error, ...).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    func error(_ rc: Int32, _ message: String, file: String = #fileID, line: Int = #line) -> StoreError {
        switch rc & 0xff {
        case SQLITE_CONSTRAINT: return StoreError(.constraintViolation, message, file: file, line: line)
        case SQLITE_BUSY, SQLITE_LOCKED: return StoreError(.busy, message, file: file, line: line)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return StoreError(.corrupt, message, file: file, line: line)
        default: return StoreError(.queryFailed, "\(message) (code \(rc))", file: file, line: line)
        }
    }
}
