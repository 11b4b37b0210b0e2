import AssentServerCore
internal import CSQLite

/// SQLite's `SQLITE_TRANSIENT` (a macro Swift cannot import): SQLite copies the bound bytes.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement owned by its connection's cache — or a chain of them from one text
/// (``SQL/chain(_:then:)``): the leading ones run to completion when it starts, and the last one's rows are the
/// result. Parameters are numbered across the chain (`?N`); each statement binds the ones up to the highest it names.
final class SQLiteStatement {
    /// The statement whose rows are read.
    private let handle: OpaquePointer
    /// Statements that run first, in order (usually none).
    private let leading: [OpaquePointer]
    /// The highest parameter number in the chain: how many values a run binds.
    private let parameterCount: Int
    private unowned let connection: SQLiteConnection

    init(_ chain: [OpaquePointer], connection: SQLiteConnection) {
        handle = chain[chain.count - 1]
        leading = Array(chain.dropLast())
        parameterCount = chain.map { Int(sqlite3_bind_parameter_count($0)) }.max() ?? 0
        self.connection = connection
    }

    deinit {
        leading.forEach { sqlite3_finalize($0) }
        sqlite3_finalize(handle)
    }

    func reset() {
        for statement in leading {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` and runs the leading statements of a chain; the last one is then ready to ``step()``.
    func start(_ values: [StoreValue]) throws {
        guard parameterCount == values.count else {
            throw StoreError(.queryFailed, "expected \(parameterCount) bindings, got \(values.count)")
        }
        for statement in leading {
            try bind(values, to: statement)
            var rc = sqlite3_step(statement)
            while rc == SQLITE_ROW { rc = sqlite3_step(statement) }
            guard rc == SQLITE_DONE else { throw failure(rc, statement) }
        }
        try bind(values, to: handle)
    }

    private func bind(_ values: [StoreValue], to statement: OpaquePointer) throws {
        for offset in 0..<Int(sqlite3_bind_parameter_count(statement)) {
            let index = Int32(offset + 1)
            let rc: Int32
            switch values[offset] {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .bool(let v): rc = sqlite3_bind_int64(statement, index, v ? 1 : 0)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, SQLITE_TRANSIENT)
            case .blob(let v):
                rc = v.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT) }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, "bind: \(connection.errorMessage)") }
        }
    }

    /// The error of a failed step, after resetting the statement.
    private func failure(_ rc: Int32, _ statement: OpaquePointer) -> StoreError {
        let message = connection.errorMessage
        sqlite3_reset(statement)
        return connection.error(rc, message)
    }

    /// Advances; true when a row is available.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw failure(rc, handle)
        }
    }

    /// The result's column names.
    var columnNames: [String] {
        (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// The current row's value in `column`, typed as SQLite stored it.
    func value(_ column: Int32) -> StoreValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_BLOB: return .blob(blob(column) ?? [])
        default: return .text(text(column) ?? "")
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }
    func blob(_ column: Int32) -> [UInt8]? {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer = sqlite3_column_blob(handle, column) else { return isNull(column) ? nil : [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// The current row of a query, read by column index.
struct SQLiteRow: StoreRow {
    fileprivate let statement: SQLiteStatement
    init(statement: SQLiteStatement) { self.statement = statement }

    func int64(_ column: Int) -> Int64 { statement.int64(Int32(column)) }
    func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : statement.int64(Int32(column)) }
    func bool(_ column: Int) -> Bool { statement.int64(Int32(column)) != 0 }
    func string(_ column: Int) throws -> String {
        guard let value = statement.text(Int32(column)) else { throw StoreError(.corrupt, "column \(column) is null") }
        return value
    }
    func optionalString(_ column: Int) -> String? { isNull(column) ? nil : statement.text(Int32(column)) }
    func blob(_ column: Int) -> [UInt8] { statement.blob(Int32(column)) ?? [] }
    func optionalBlob(_ column: Int) -> [UInt8]? { isNull(column) ? nil : statement.blob(Int32(column)) }
    private func isNull(_ column: Int) -> Bool { statement.isNull(Int32(column)) }
}
