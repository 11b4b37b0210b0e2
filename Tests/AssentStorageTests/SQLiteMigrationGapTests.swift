@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing
import AssentTestSupport

/// The migration runner with numbers reserved by other branches.
@Suite struct SQLiteMigrationGapTests {
    @Test func `a step numbered below one already applied still runs once, and an unknown step is refused`() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("gaps.sqlite"))
        let first: [(version: Int, sql: String)] = [(1, "CREATE TABLE a (x)"), (5, "CREATE TABLE e (x)")]
        try SQLiteMigrations.apply(to: connection, steps: first)
        let merged = first + [(4, "CREATE TABLE d (x)")]
        try SQLiteMigrations.apply(to: connection, steps: merged)
        try SQLiteMigrations.apply(to: connection, steps: merged)
        #expect(try connection.query("SELECT version FROM schema_steps ORDER BY version") { Int($0.int64(0)) } == [1, 4, 5])
        #expect(try connection.queryOne("PRAGMA user_version") { $0.int64(0) } == 5)
        #expect(try connection.queryOne("SELECT COUNT(*) FROM d") { $0.int64(0) } == 0)
        #expect(throws: StoreError(.migrationFailed, "")) { try SQLiteMigrations.apply(to: connection, steps: [(1, "")]) }
    }

    @Test func `a database from before schema_steps counts every step up to its user_version as applied`() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("old.sqlite"))
        try connection.execute("CREATE TABLE a (x); PRAGMA user_version = 3")
        try SQLiteMigrations.apply(
            to: connection, steps: [(1, "CREATE TABLE a (x)"), (3, "CREATE TABLE c (x)"), (5, "CREATE TABLE e (x)")])
        #expect(try connection.query("SELECT version FROM schema_steps ORDER BY version") { Int($0.int64(0)) } == [1, 3, 5])
        #expect(try connection.queryOne("SELECT COUNT(*) FROM e") { $0.int64(0) } == 0)
    }
}
