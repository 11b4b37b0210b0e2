import AssentServerCore
internal import CPostgres
import Foundation

/// One libpq connection: the only place Assent calls libpq. It owns its `PGconn` (closed in `deinit`), checks every
/// result, copies rows out before the `PGresult` is freed, and caches a prepared statement per SQL text. libpq
/// blocks, so a connection is used by one thread at a time — a pooled one only on its own dispatch queue
/// (``PostgresPool``), the listening one only on its own thread — never on a Swift concurrency thread.
final class PostgresConnection: StoreConnection, @unchecked Sendable {
    /// A notification received on a channel this connection listens to.
    struct Notification: Sendable {
        var channel: String
        var payload: String
    }

    private let handle: OpaquePointer
    private var statements: [String: String] = [:]
    /// A `BEGIN` not sent yet: it travels with the transaction's first statement (see ``begin()``).
    private(set) var beginPending = false

    /// Connects to `url` (a `postgres://` URI or a libpq key=value string).
    init(url: String) throws {
        guard let connection = PQconnectdb(url) else { throw StoreError(.openFailed, "libpq: out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw StoreError(.openFailed, "cannot connect to PostgreSQL: \(message)")
        }
        handle = connection
        // Server notices (e.g. "relation already exists, skipping") are not errors; they go nowhere.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// False once the server went away; such a connection is replaced, never reused.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// True inside a transaction block (also a failed one).
    var inTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server process serving this connection.
    var backendPID: Int32 { PQbackendPID(handle) }

    /// Starts a transaction. The `BEGIN` is sent together with the first statement, in one pipeline (one round
    /// trip instead of two); a transaction that runs no statement sends nothing.
    func begin() {
        beginPending = true
    }

    /// Ends a transaction started with ``begin()``: `COMMIT` (or `ROLLBACK`), unless nothing was sent.
    func finish(commit: Bool) throws {
        if beginPending {
            beginPending = false
            return
        }
        try execute(commit ? "COMMIT" : "ROLLBACK")
    }

    /// Runs one or more statements without parameters (simple query protocol).
    func execute(_ sql: String) throws {
        if beginPending {
            beginPending = false
            try execute("BEGIN")
        }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        _ = try check(result, sql: sql)
    }

    /// Runs `sql` (prepared once per connection) with `values`; returns the rows and how many rows it touched.
    @discardableResult
    func run(_ sql: String, _ values: [StoreValue] = []) throws -> (rows: [PostgresRow], affected: Int) {
        let name = try prepared(sql)
        let texts = values.map { $0.textFormat.map { strdup($0) } ?? nil }
        defer { texts.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = texts.map { $0.map { UnsafePointer($0) } }
        if beginPending {
            beginPending = false
            return try pipelinedWithBegin(name, pointers, sql: sql)
        }
        let result = pointers.withUnsafeBufferPointer { buffer in
            PQexecPrepared(handle, name, Int32(values.count), buffer.baseAddress, nil, nil, 0)
        }
        defer { PQclear(result) }
        let rows = try check(result, sql: sql)
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return (rows, affected)
    }

    /// Runs a query and maps every row.
    func query<T>(_ sql: SQL, _ values: [StoreValue] = [], _ map: (PostgresRow) throws -> T) throws -> [T] {
        try run(sql.postgres, values).rows.map(map)
    }

    /// Runs a query and maps its first row, if any.
    func queryOne<T>(_ sql: SQL, _ values: [StoreValue] = [], _ map: (PostgresRow) throws -> T) throws -> T? {
        try run(sql.postgres, values).rows.first.map(map)
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    func update(_ sql: SQL, _ values: [StoreValue] = []) throws -> Int {
        try run(sql.postgres, values).affected
    }

    /// Takes the transaction-scoped advisory lock named by `key` (hashed), waiting while another transaction of any
    /// instance holds it.
    func lock(_ key: String) throws {
        try update(Self.advisoryLock, [.text(key)])
    }

    private static let advisoryLock: SQL = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"

    /// Sends `BEGIN` and the prepared statement in one pipeline, then reads both results up to the sync point.
    /// When the connection turns out dead here nothing can have been committed, so the error is
    /// ``PostgresConnectionLost`` and the pool may run the whole transaction again on a new connection.
    private func pipelinedWithBegin(
        _ name: String, _ pointers: [UnsafePointer<CChar>?], sql: String
    ) throws -> (rows: [PostgresRow], affected: Int) {
        func lost(_ what: String) -> any Error {
            let error = StoreError(.queryFailed, "\(what): \(errorMessage)")
            return isHealthy ? error : PostgresConnectionLost(underlying: error)
        }
        guard PQenterPipelineMode(handle) == 1 else { throw lost("cannot enter pipeline mode") }
        defer { PQexitPipelineMode(handle) }
        let sent = PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
            && pointers.withUnsafeBufferPointer { buffer in
                PQsendQueryPrepared(handle, name, Int32(pointers.count), buffer.baseAddress, nil, nil, 0) == 1
            }
            && PQpipelineSync(handle) == 1
        guard sent else { throw lost("cannot send") }
        // Results arrive in order: BEGIN's, a null, the statement's, a null, then the sync point.
        var outcomes: [Result<(rows: [PostgresRow], affected: Int), any Error>] = []
        while true {
            guard let result = PQgetResult(handle) else {
                if !isHealthy { throw lost("connection lost") }
                continue
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { break }
            if status == PGRES_PIPELINE_ABORTED {
                outcomes.append(.failure(StoreError(.queryFailed, "not run: the transaction failed to begin")))
                continue
            }
            outcomes.append(Result {
                let rows = try check(result, sql: sql)
                return (rows, Int(String(cString: PQcmdTuples(result))) ?? 0)
            })
        }
        guard outcomes.count == 2 else { throw StoreError(.queryFailed, "pipeline returned \(outcomes.count) results") }
        _ = try outcomes[0].get()
        return try outcomes[1].get()
    }

    private func prepared(_ sql: String) throws -> String {
        if let name = statements[sql] { return name }
        let name = "assent_\(statements.count + 1)"
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        _ = try check(result, sql: sql)
        statements[sql] = name
        return name
    }

    /// Turns a result into rows, or its error into a ``StoreError`` by SQLSTATE class.
    private func check(_ result: OpaquePointer?, sql: String, file: String = #fileID, line: Int = #line) throws -> [PostgresRow] {
        guard let result else {
            throw StoreError(.queryFailed, "libpq: \(errorMessage)", file: file, line: line)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY { return [] }
        if status == PGRES_TUPLES_OK {
            let count = PQntuples(result)
            let fields = PQnfields(result)
            var rows: [PostgresRow] = []
            rows.reserveCapacity(Int(count))
            for row in 0..<count {
                var values: [String?] = []
                values.reserveCapacity(Int(fields))
                for field in 0..<fields {
                    values.append(PQgetisnull(result, row, field) != 0 ? nil : String(cString: PQgetvalue(result, row, field)))
                }
                rows.append(PostgresRow(values: values))
            }
            return rows
        }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
        if !isHealthy { statements.removeAll() }
        throw Self.error(state: state, message: message, file: file, line: line)
    }

    /// Maps SQLSTATE classes onto ``StoreError`` codes.
    static func error(state: String, message: String, file: String = #fileID, line: Int = #line) -> StoreError {
        switch state {
        case let s where s.hasPrefix("23"): return StoreError(.constraintViolation, message, file: file, line: line)
        case "40001", "40P01", "55P03": return StoreError(.busy, "\(message) (\(state))", file: file, line: line)
        case "XX001", "XX002": return StoreError(.corrupt, message, file: file, line: line)
        default: return StoreError(.queryFailed, "\(message) (\(state.isEmpty ? "no SQLSTATE" : state))", file: file, line: line)
        }
    }

    var errorMessage: String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Notifications (LISTEN)

    /// Waits up to `timeout` seconds for input from the server, reads it, and returns the notifications that arrived.
    /// Throws when the connection is lost.
    func waitForNotifications(timeout: Double) throws -> [Notification] {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw StoreError(.queryFailed, "PostgreSQL connection lost") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        if ready < 0, errno != EINTR { throw StoreError(.queryFailed, "poll: \(String(cString: strerror(errno)))") }
        if ready > 0 {
            guard PQconsumeInput(handle) == 1 else { throw StoreError(.queryFailed, "PostgreSQL: \(errorMessage)") }
        }
        var notifications: [Notification] = []
        while let notice = PQnotifies(handle) {
            notifications.append(Notification(
                channel: String(cString: notice.pointee.relname), payload: String(cString: notice.pointee.extra)))
            PQfreemem(notice)
        }
        if !isHealthy { throw StoreError(.queryFailed, "PostgreSQL connection lost") }
        return notifications
    }
}
