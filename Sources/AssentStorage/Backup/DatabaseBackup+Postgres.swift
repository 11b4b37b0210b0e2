import AssentServerCore
import Foundation

/// PostgreSQL backups: `pg_dump --format=custom` and `pg_restore` of the server's own major version (an older
/// `pg_dump` refuses a newer server, and a newer one writes archives an older `pg_restore` cannot read).
extension DatabaseBackup {
    /// The dump's name in a PostgreSQL backup.
    static let postgresFile = "database.pgdump"

    /// Dumps the database from one exported snapshot and reads the manifest's counts and audit heads in that same
    /// snapshot, so they describe exactly what the dump holds while instances keep writing.
    static func backupPostgres(url: String, to directory: String, toolVersion: String, now: Date) throws -> BackupManifest {
        let connection = try PostgresConnection(url: url)
        let tool = try postgresTool("pg_dump", connection: connection)
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? connection.execute("ROLLBACK") }
        let snapshot = try connection.queryOne("SELECT pg_export_snapshot()") { try $0.string(0) } ?? ""
        let contents = try BackupManifest.Contents.read(postgres: connection)
        let dump = (directory as NSString).appendingPathComponent(postgresFile)
        try run(tool, ["--format=custom", "--no-owner", "--no-privileges", "--snapshot=\(snapshot)", "--file=\(dump)",
                       "--dbname=\(url)"])
        try sync(dump)
        return manifest("postgres", databaseFile: postgresFile, contents: contents, toolVersion: toolVersion, now: now)
    }

    /// Restores the dump into the database at `url`, which must have no tables unless `force` (then `pg_restore
    /// --clean` drops what the dump holds first), in one transaction; then compares the database with the manifest.
    static func restorePostgres(_ manifest: BackupManifest, from directory: String, to url: String, force: Bool) throws {
        let connection = try PostgresConnection(url: url)
        let tool = try postgresTool("pg_restore", connection: connection)
        let tables = try connection.queryOne(
            """
            SELECT COUNT(*) FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
            """) { $0.int64(0) } ?? 0
        if tables > 0, !force {
            throw BackupError(.exists, "the database \(DatabaseLocation.postgres(url: url).redacted) has \(tables) tables; restore into an empty database, or give --force to replace them (stop every assentd first)")
        }
        let dump = (directory as NSString).appendingPathComponent(manifest.databaseFile)
        try run(tool, ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
            + (tables > 0 ? ["--clean", "--if-exists"] : []) + ["--dbname=\(url)", dump])
        if let difference = manifest.contents.difference(from: try .read(postgres: connection)) {
            throw BackupError(.mismatch, "the restored database is not what the backup recorded: \(difference)")
        }
    }

    /// The path of `name` (`pg_dump`, `pg_restore`) for the server's major version: `$ASSENT_PG_BIN/name` when set,
    /// else Debian's `/usr/lib/postgresql/MAJOR/bin/name`.
    static func postgresTool(_ name: String, connection: PostgresConnection) throws -> String {
        if let directory = ProcessInfo.processInfo.environment["ASSENT_PG_BIN"], !directory.isEmpty {
            return (directory as NSString).appendingPathComponent(name)
        }
        let number = try connection.queryOne("SELECT current_setting('server_version_num')") { try Int($0.string(0)) ?? 0 } ?? 0
        let major = number / 10_000
        let path = "/usr/lib/postgresql/\(major)/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BackupError(
                .toolFailed,
                "the server runs PostgreSQL \(major) and \(path) is missing: install postgresql-client-\(major), or name the folder holding \(name) with ASSENT_PG_BIN")
        }
        return path
    }

    /// Runs `tool` with `arguments`, and throws with its standard error when it fails.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BackupError(.toolFailed, "cannot run \(tool): \(ErrorText.describe(error))")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let name = (tool as NSString).lastPathComponent
            throw BackupError(.toolFailed, "\(name) failed (exit \(process.terminationStatus)): \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
