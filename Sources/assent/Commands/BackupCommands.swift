import AssentServerCore
import AssentStorage
import Foundation

/// `assent admin backup` and `assent admin restore`: a consistent copy of assentd's database with its master key and
/// a manifest, taken while assentd serves, and the checked way back (``DatabaseBackup``; docs/operations.md).
enum BackupCommands {
    /// What `backup` and `restore` print with `--json`.
    struct ResultJSON: Encodable {
        let directory: String
        let database: String
        let schemaStep: Int
        let rowCounts: [String: Int64]
        let auditHeads: [String: BackupManifest.AuditHead]
        let createdAt: String
        let masterKeyFile: String?
        let masterKeyRing: BackupManifest.KeyRing?
    }

    static let backup = Command.leaf(
        "backup", "copy the database, its master key and a manifest into a new folder, while assentd serves",
        details: """
            SQLite is copied with SQLite's online backup API (never a file copy of the live WAL database); PostgreSQL
            with pg_dump --format=custom of the server's major version, from one snapshot. The folder (0700, files
            0600) holds the database, master.key (the master key, or the key ring after a rotation) and manifest.json:
            schema step, rows per table, each tenant's audit chain head, the key ring's versions, this tool's version,
            the time, and a SHA-256 of each file. It keeps the master key: store it as you would the key itself.
            """,
        options: [
            TenantDatabase.option,
            .required("--to", "DIR", "the folder to write (created 0700; an existing one must be empty)"),
        ]
    ) { invocation in
        let location = try TenantDatabase.location(invocation.options.string(TenantDatabase.option.name) ?? TenantDatabase.defaultPath)
        let directory = try invocation.options.required("--to")
        let ring = try existingMasterKey(for: location)
        let manifest = try translating {
            try DatabaseBackup.backup(location, ring: ring, to: directory, toolVersion: AssentVersion.current)
        }
        try invocation.output.result(resultJSON(manifest, directory: directory, masterKeyFile: nil)) {
            let rows = manifest.contents.rowCounts.values.reduce(0, +)
            let chains = manifest.contents.auditHeads.count
            return "Backed up the \(manifest.database) database (schema step \(manifest.contents.schemaStep), \(rows) rows, "
                + "\(chains) audit chain\(chains == 1 ? "" : "s")) with its master key into \(directory)."
        }
    }

    static let restore = Command.leaf(
        "restore", "check a backup folder and restore it into a new database",
        details: """
            Every file is checked against the manifest first (a missing, truncated or changed file is named and nothing
            is written), and a backup with a schema step this build does not know is refused. The database must not
            exist (SQLite) or must have no tables (PostgreSQL) unless --force; stop assentd before replacing one. A
            restored SQLite database gets master.key beside it; with PostgreSQL give the backup's master.key to every
            assentd (--master-key-file). The restored database is then compared with the manifest's counts and audit
            heads.
            """,
        options: [
            .required("--from", "DIR", "the backup folder"),
            .required("--database", "PATH|URL", "the database to restore into (an SQLite path or a postgres:// URL)"),
            .flag("--force", "replace an existing database (and a different master.key beside it)"),
        ]
    ) { invocation in
        let directory = try invocation.options.required("--from")
        let location = try TenantDatabase.location(try invocation.options.required("--database"))
        let restored = try translating {
            try DatabaseBackup.restore(from: directory, to: location, force: invocation.options.flag("--force"))
        }
        let keyFile = restored.masterKeyFile ?? (directory as NSString).appendingPathComponent(BackupManifest.masterKeyFileName)
        try invocation.output.result(resultJSON(restored.manifest, directory: directory, masterKeyFile: restored.masterKeyFile)) {
            var text = "Restored the backup of \(restored.manifest.createdAt) into \(location.redacted); its row counts and "
                + "audit chain heads match the manifest."
            if restored.masterKeyFile == nil {
                text += "\nGive every assentd the backup's master key: --master-key-file \(keyFile) (copy it somewhere safe)."
            }
            return text
        }
    }

    /// The master key of the database being backed up, as the other admin commands find it — but never made up: a
    /// backup with a new key beside it would restore a database whose secrets nothing can derive.
    static func existingMasterKey(for location: DatabaseLocation) throws -> MasterKeyRing {
        let environment = ProcessInfo.processInfo.environment
        let base64 = environment["ASSENT_MASTER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let file = environment["ASSENT_MASTER_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no database at \(path)", errorCode: "not_found")
        }
        if base64 == nil, let named = file ?? location.defaultMasterKeyFile, !FileManager.default.fileExists(atPath: named) {
            throw CLIError.failure(
                "no master key at \(named): name the database's key with ASSENT_MASTER_KEY_FILE or ASSENT_MASTER_KEY",
                errorCode: "not_found")
        }
        do {
            return try location.loadMasterKey(base64: base64, file: file, warn: { Output.warning($0) })
        } catch let error as MasterKey.Invalid {
            throw CLIError.usage(error.description)
        }
    }

    /// Runs `body`, turning a ``BackupError`` into a failure with the error's code (`backup_damaged`, ...).
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BackupError {
            throw CLIError.failure(error.reason, errorCode: "backup_\(error.code)")
        } catch let error as StoreError {
            throw CLIError.failure(error.reason, errorCode: "backup_\(error.code)")
        }
    }

    static func resultJSON(_ manifest: BackupManifest, directory: String, masterKeyFile: String?) -> ResultJSON {
        ResultJSON(
            directory: directory, database: manifest.database, schemaStep: manifest.contents.schemaStep,
            rowCounts: manifest.contents.rowCounts, auditHeads: manifest.contents.auditHeads,
            createdAt: manifest.createdAt, masterKeyFile: masterKeyFile, masterKeyRing: manifest.masterKeyRing)
    }
}
