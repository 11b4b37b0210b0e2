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
    /// Where this connection's round trips are counted.
    let roundTrips: PostgresRoundTrips
    private var statements: [String: String] = [:]
    /// A `BEGIN` not sent yet: it travels with the transaction's first statement (see ``begin()``).
    private(set) var beginPending = false
    /// Statements whose results nobody reads (an advisory lock), held back to travel in the pipeline of the next
    /// statement or of the `COMMIT`.
    private var deferred: [PipelineStep] = []
    /// True once the transaction begun with ``begin()`` was committed together with its last statement
    /// (``runAndCommit(_:_:then:)``): nothing is left for ``finish(commit:)`` to send.
    private(set) var committed = false

    /// Connects to `url` (a `postgres://` URI or a libpq key=value string).
    init(url: String, roundTrips: PostgresRoundTrips = PostgresRoundTrips()) throws {
        self.roundTrips = roundTrips
        roundTrips.add()  // the start-up exchange (more with password authentication; counted as one)
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
        deferred = []
        committed = false
    }

    /// Ends a transaction started with ``begin()``: `COMMIT` (or `ROLLBACK`), unless nothing was sent (statements
    /// held back then need not run: a transaction-scoped lock that guards nothing).
    func finish(commit: Bool) throws {
        let held = deferred
        deferred = []
        if committed { return }
        if beginPending {
            beginPending = false
            return
        }
        guard commit, !held.isEmpty else { return try execute(commit ? "COMMIT" : "ROLLBACK") }
        let outcomes = try pipeline(held + [.plain("COMMIT")])
        for outcome in outcomes { _ = try outcome.get() }
    }

    /// Runs the transaction's last statement and commits, in one round trip with whatever is pending (`BEGIN`,
    /// held-back statements); then the statements `then`, if any, run after the commit, in the same round trip and
    /// one implicit transaction of their own; their rows come back in `after` (nil for one that failed or did not
    /// run: their failure is not the transaction's). Nothing may be sent on the transaction after it. A failed
    /// statement leaves the transaction failed and uncommitted, for the caller to roll back.
    func runAndCommit(
        _ sql: String, _ values: [StoreValue], then: [(sql: String, values: [StoreValue])] = []
    ) throws -> (rows: [PostgresRow], affected: Int, after: [[PostgresRow]?]) {
        let (begin, prefix) = takePending()
        let steps = prefix + [.prepared(sql, values), .plain("COMMIT")] + then.map { PipelineStep.prepared($0.sql, $0.values) }
        let outcomes = try pipeline(steps, begins: begin)
        for outcome in outcomes.prefix(prefix.count) { _ = try outcome.get() }
        let result = try outcomes[prefix.count].get()
        _ = try outcomes[prefix.count + 1].get()
        committed = true
        let after = outcomes.dropFirst(prefix.count + 2).map { try? $0.get().rows }
        return (result.rows, result.affected, after)
    }

    /// Runs `statements` in order in one round trip (with a pending `BEGIN` and held-back statements) and returns
    /// each one's rows; the first failure is thrown.
    func runAll(_ statements: [(sql: SQL, values: [StoreValue])]) throws -> [[PostgresRow]] {
        let (begin, prefix) = takePending()
        let outcomes = try pipeline(prefix + statements.map { .prepared($0.sql.postgres, $0.values) }, begins: begin)
        for outcome in outcomes.prefix(prefix.count) { _ = try outcome.get() }
        return try outcomes.dropFirst(prefix.count).map { try $0.get().rows }
    }

    /// What must go before the next statement — a pending `BEGIN`, then the held-back statements — taken off the
    /// connection, and whether it begins the transaction.
    private func takePending() -> (begins: Bool, steps: [PipelineStep]) {
        let begin = beginPending
        let steps = (begin ? [PipelineStep.plain("BEGIN")] : []) + deferred
        beginPending = false
        deferred = []
        return (begin, steps)
    }

    /// Commits the transaction started with ``begin()`` and then, in the same round trip, runs `sql` on its own
    /// (its own implicit transaction, after the commit). A failed commit runs nothing after it; `sql`'s own failure
    /// is ignored.
    func commit(then sql: String, _ values: [StoreValue]) throws {
        if beginPending {
            beginPending = false
            deferred = []
            _ = try? run(sql, values)
            return
        }
        let held = deferred
        deferred = []
        let outcomes = try pipeline(held + [.plain("COMMIT"), .prepared(sql, values)])
        for outcome in outcomes.prefix(held.count + 1) { _ = try outcome.get() }
    }

    /// Runs one or more statements without parameters (simple query protocol).
    func execute(_ sql: String) throws {
        if beginPending || !deferred.isEmpty {
            let (begin, prefix) = takePending()
            for outcome in try pipeline(prefix, begins: begin) { _ = try outcome.get() }
        }
        roundTrips.add()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        _ = try check(result, sql: sql)
    }

    /// Runs `sql` (prepared once per connection) with `values`; returns the rows and how many rows it touched. One
    /// round trip: a statement not prepared yet on this connection is prepared in the same pipeline as its first
    /// execution, and a pending `BEGIN` travels with it too.
    @discardableResult
    func run(_ sql: String, _ values: [StoreValue] = []) throws -> (rows: [PostgresRow], affected: Int) {
        guard let name = statements[sql], !beginPending, deferred.isEmpty else {
            let (begin, prefix) = takePending()
            let outcomes = try pipeline(prefix + [.prepared(sql, values)], begins: begin)
            for outcome in outcomes.dropLast() { _ = try outcome.get() }
            return try outcomes[outcomes.count - 1].get()
        }
        let texts = values.map { $0.textFormat.map { strdup($0) } ?? nil }
        defer { texts.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = texts.map { $0.map { UnsafePointer($0) } }
        roundTrips.add()
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
    /// instance holds it. It is sent with the transaction's next statement (no round trip of its own), which runs
    /// after it, once the lock is held.
    func lock(_ key: String) throws {
        deferred.append(.prepared(Self.advisoryLock.postgres, [.text(key)]))
    }

    private static let advisoryLock: SQL = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"

    /// One message of a pipeline: a statement without parameters (`BEGIN`, `COMMIT`), or a prepared statement.
    enum PipelineStep {
        case plain(String)
        case prepared(String, [StoreValue])
    }

    /// Sends `steps` in one pipeline — with a `Prepare` before each statement not prepared yet on this connection — and
    /// a sync point, then reads every result: one round trip, one outcome per step. Statements after a failed one are
    /// not run (their outcome says so). Outside a transaction block the steps run as one implicit transaction, ended
    /// by the sync point; a `COMMIT` among them ends the block it commits, and what follows runs in a new one.
    /// When the connection turns out dead in a pipeline that `begins` a transaction, nothing can have been committed,
    /// so the error is ``PostgresConnectionLost`` and the pool may run the whole transaction again on a new connection.
    func pipeline(
        _ steps: [PipelineStep], begins: Bool = false
    ) throws -> [Result<(rows: [PostgresRow], affected: Int), any Error>] {
        func lost(_ what: String) -> any Error {
            let error = StoreError(.queryFailed, "\(what): \(errorMessage)")
            return begins && !isHealthy ? PostgresConnectionLost(underlying: error) : error
        }
        // What each result answers: step `index`, or the Prepare of step `index`'s statement.
        var expected: [(index: Int, prepare: Bool)] = []
        var preparing: [String: String] = [:]
        var copies: [UnsafeMutablePointer<CChar>?] = []
        defer { copies.forEach { free($0) } }
        roundTrips.add()
        guard PQenterPipelineMode(handle) == 1 else { throw lost("cannot enter pipeline mode") }
        defer { PQexitPipelineMode(handle) }
        for (index, step) in steps.enumerated() {
            let sent: Bool
            switch step {
            case .plain(let sql):
                sent = PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 0) == 1
            case .prepared(let sql, let values):
                var name = statements[sql] ?? preparing[sql]
                if name == nil {
                    let fresh = "assent_\(statements.count + preparing.count + 1)"
                    guard PQsendPrepare(handle, fresh, sql, 0, nil) == 1 else { throw lost("cannot send") }
                    preparing[sql] = fresh
                    expected.append((index, true))
                    name = fresh
                }
                let texts = values.map { $0.textFormat.map { strdup($0) } ?? nil }
                copies += texts
                let pointers: [UnsafePointer<CChar>?] = texts.map { $0.map { UnsafePointer($0) } }
                sent = pointers.withUnsafeBufferPointer { buffer in
                    PQsendQueryPrepared(handle, name!, Int32(pointers.count), buffer.baseAddress, nil, nil, 0) == 1
                }
            }
            guard sent else { throw lost("cannot send") }
            expected.append((index, false))
        }
        guard PQpipelineSync(handle) == 1 else { throw lost("cannot send") }
        var outcomes: [Result<(rows: [PostgresRow], affected: Int), any Error>?] = Array(repeating: nil, count: steps.count)
        var position = 0
        // Results arrive in order, each followed by a null; then the sync point.
        while true {
            guard let result = PQgetResult(handle) else {
                if !isHealthy { throw lost("connection lost") }
                continue
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { break }
            guard position < expected.count else { continue }
            let (index, prepare) = expected[position]
            position += 1
            let sql: String
            switch steps[index] {
            case .plain(let text): sql = text
            case .prepared(let text, _): sql = text
            }
            if status == PGRES_PIPELINE_ABORTED {
                if outcomes[index] == nil {
                    outcomes[index] = .failure(StoreError(.queryFailed, "not run: an earlier step of its pipeline failed"))
                }
                continue
            }
            if prepare {
                do {
                    _ = try check(result, sql: sql)
                    // A prepared statement outlives its transaction, even one rolled back.
                    statements[sql] = preparing[sql]
                } catch {
                    outcomes[index] = .failure(error)
                }
                continue
            }
            if outcomes[index] != nil { continue }  // its Prepare failed
            outcomes[index] = Result {
                let rows = try check(result, sql: sql)
                return (rows, Int(String(cString: PQcmdTuples(result))) ?? 0)
            }
        }
        guard position == expected.count else {
            throw StoreError(.queryFailed, "the pipeline returned \(position) results, not \(expected.count)")
        }
        return outcomes.map { $0 ?? .failure(StoreError(.queryFailed, "no result")) }
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
