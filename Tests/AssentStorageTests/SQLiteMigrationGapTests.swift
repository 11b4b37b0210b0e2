@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import AssentSync
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

    @Test func `two connections migrating one new file at once apply each step once`() throws {
        // assentd and the CLI opening the same new database: each read what was applied before the other's steps
        // committed, and the one that waited for the lock ran a step again ("duplicate column").
        for round in 0..<5 {
            let directory = try TemporaryDirectory()
            let path = directory.file("race-\(round).sqlite")
            let steps = (1...30).map { (version: $0, sql: "CREATE TABLE t\($0) (x)") }
            let failures = AssentLock<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    try SQLiteMigrations.apply(to: try SQLiteConnection(path: path), steps: steps)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.query("SELECT version FROM schema_steps ORDER BY version") { Int($0.int64(0)) } == Array(1...30))
        }
    }
}
