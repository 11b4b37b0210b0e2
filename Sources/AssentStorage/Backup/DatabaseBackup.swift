import AssentCrypto
package import AssentServerCore
import AssentWire
package import Foundation

/// `assent admin backup` and `assent admin restore`: a consistent copy of the database with its master key and a
/// ``BackupManifest``, and the way back.
///
/// SQLite is copied with the online backup API from a read-only connection (``SQLiteConnection/backup(into:)``), so
/// a serving `assentd` keeps writing meanwhile; a file copy of a live WAL database could miss commits still in the
/// `-wal` file or tear pages. PostgreSQL is copied by `pg_dump --format=custom` from a snapshot the manifest's counts
/// are read in too (`DatabaseBackup+Postgres.swift`). A restore verifies every checksum and the schema before it
/// writes anything, builds the database under a temporary name, and checks it against the manifest before and after
/// it takes the database's place.
package enum DatabaseBackup {
    /// The database file's name in an SQLite backup.
    static let sqliteFile = "database.sqlite"

    /// What a restore did, for the command's output.
    package struct Restored: Sendable {
        /// The manifest the restored database was checked against.
        package var manifest: BackupManifest
        /// Where the master key was put (beside a restored SQLite database); nil for PostgreSQL, whose instances
        /// name their key themselves.
        package var masterKeyFile: String?
    }

    /// Backs up the database at `location` with its master key ring `ring` into the new (or empty) folder
    /// `directory`. `toolVersion` and `now` go into the manifest.
    package static func backup(
        _ location: DatabaseLocation, ring: MasterKeyRing, to directory: String, toolVersion: String,
        now: Date = Date()
    ) throws -> BackupManifest {
        try prepareEmptyDirectory(directory)
        do {
            let manifest: BackupManifest
            switch location {
            case .sqlite(let path):
                manifest = try backupSQLite(path: path, to: directory, toolVersion: toolVersion, now: now)
            case .postgres(let url):
                manifest = try backupPostgres(url: url, to: directory, toolVersion: toolVersion, now: now)
            }
            return try finish(manifest, ring: ring, in: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Restores the backup in `directory` into `location`. Refuses a damaged backup, one with a schema step this
    /// build does not know, and (unless `force`) an existing database or a different master key beside it.
    package static func restore(from directory: String, to location: DatabaseLocation, force: Bool) throws -> Restored {
        let manifest = try verify(directory, for: location)
        switch location {
        case .sqlite(let path):
            return try restoreSQLite(manifest, from: directory, to: path, force: force)
        case .postgres(let url):
            try restorePostgres(manifest, from: directory, to: url, force: force)
            return Restored(manifest: manifest, masterKeyFile: nil)
        }
    }

    /// Reads the manifest of `directory` and checks everything a restore into `location` needs before writing:
    /// the kind of database, every file's checksum, the master key's form, and the schema steps this build knows.
    package static func verify(_ directory: String, for location: DatabaseLocation) throws -> BackupManifest {
        let manifest = try BackupManifest.read(from: directory)
        let kind = location.isShared ? "postgres" : "sqlite"
        guard manifest.database == kind else {
            throw BackupError(.unusable, "the backup in \(directory) is of a \(manifest.database) database, not \(kind)")
        }
        try manifest.verifyFiles(in: directory)
        _ = try manifest.masterKeyRing(in: directory)
        let known = Set(location.isShared ? PostgresMigrations.steps.map(\.version) : SQLiteMigrations.steps.map(\.version))
        if let unknown = Set(manifest.contents.schemaSteps).subtracting(known).max() {
            throw BackupError(
                .newerSchema,
                "the backup in \(directory) has schema step \(unknown), which this build does not know (it was made by a newer assentd, \(manifest.toolVersion)); restore it with that version or newer")
        }
        return manifest
    }

    // MARK: - SQLite

    static func backupSQLite(path: String, to directory: String, toolVersion: String, now: Date) throws -> BackupManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw BackupError(.unusable, "no SQLite database at \(path)")
        }
        let copy = (directory as NSString).appendingPathComponent(sqliteFile)
        try OwnerOnlyFiles.createFileIfMissing(copy)
        try SQLiteConnection(path: path, readOnly: true).backup(into: copy)
        try sync(copy)
        let contents = try BackupManifest.Contents.read(sqlite: SQLiteConnection(path: copy, readOnly: true))
        return manifest("sqlite", databaseFile: sqliteFile, contents: contents, toolVersion: toolVersion, now: now)
    }

    static func restoreSQLite(_ manifest: BackupManifest, from directory: String, to path: String, force: Bool) throws -> Restored {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw BackupError(.unusable, "\(path) is a folder, not a database file") }
            guard force else {
                throw BackupError(.exists, "a database exists at \(path); restore into a new path, or give --force to replace it (stop assentd first)")
            }
        }
        let keyFile = (((path as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent(BackupManifest.masterKeyFileName))
        let ring = try manifest.masterKeyRing(in: directory)
        if let existing = FileManager.default.contents(atPath: keyFile), !force,
           (try? MasterKeyRing.parse(String(decoding: existing, as: UTF8.self), source: keyFile)) != ring {
            throw BackupError(.exists, "\(keyFile) holds another master key (ring); restore beside no key or give --force to replace it")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try OwnerOnlyFiles.createDirectory(folder) }
        let temporary = path + ".restoring-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try OwnerOnlyFiles.createFileIfMissing(temporary)
            let source = (directory as NSString).appendingPathComponent(manifest.databaseFile)
            try SQLiteConnection(path: source, readOnly: true).backup(into: temporary)
            try sync(temporary)
            try check(temporary, against: manifest)
            // A -wal left by the database being replaced would be replayed into the restored one.
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            guard rename(temporary, path) == 0 else {
                throw BackupError(.unusable, "cannot move the restored database to \(path): \(String(cString: strerror(errno)))")
            }
            try syncDirectory(of: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        try writeOwnerOnly(Array(ring.text.utf8), to: keyFile)
        try check(path, against: manifest)
        return Restored(manifest: manifest, masterKeyFile: keyFile)
    }

    /// Opens the SQLite database at `path` read-only and compares it with the manifest.
    static func check(_ path: String, against manifest: BackupManifest) throws {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        let verdict = try connection.queryOne("PRAGMA quick_check") { try $0.string(0) } ?? "no answer"
        guard verdict == "ok" else { throw BackupError(.damaged, "the restored database at \(path) fails SQLite's check: \(verdict)") }
        if let difference = manifest.contents.difference(from: try .read(sqlite: connection)) {
            throw BackupError(.mismatch, "the restored database at \(path) is not what the backup recorded: \(difference)")
        }
    }

    // MARK: - Files

    static func manifest(
        _ database: String, databaseFile: String, contents: BackupManifest.Contents, toolVersion: String, now: Date
    ) -> BackupManifest {
        BackupManifest(
            format: BackupManifest.currentFormat, database: database, databaseFile: databaseFile, contents: contents,
            toolVersion: toolVersion, createdAt: Timestamp.iso8601(milliseconds: Int64(now.timeIntervalSince1970 * 1000)),
            files: [:])
    }

    /// Writes the master key ring beside the database copy (and lists its versions in the manifest), checksums both,
    /// and writes the manifest last: a folder without a manifest is an unfinished backup.
    static func finish(_ manifest: BackupManifest, ring: MasterKeyRing, in directory: String) throws -> BackupManifest {
        var manifest = manifest
        manifest.masterKeyRing = BackupManifest.KeyRing(ring)
        try writeOwnerOnly(Array(ring.text.utf8),
                           to: (directory as NSString).appendingPathComponent(BackupManifest.masterKeyFileName))
        for file in [manifest.databaseFile, BackupManifest.masterKeyFileName] {
            manifest.files[file] = try BackupManifest.entry(for: file, in: directory)
        }
        try writeOwnerOnly(Array(try manifest.encoded()), to: (directory as NSString).appendingPathComponent(BackupManifest.fileName))
        try syncDirectory(of: (directory as NSString).appendingPathComponent(BackupManifest.fileName))
        return manifest
    }

    /// Creates `directory` (0700), or takes an existing empty one (made 0700); refuses anything in it.
    static func prepareEmptyDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw BackupError(.exists, "\(directory) exists and is not a folder") }
            guard (try FileManager.default.contentsOfDirectory(atPath: directory)).isEmpty else {
                throw BackupError(.exists, "\(directory) is not empty; back up into a new folder")
            }
            chmod(directory, OwnerOnlyFiles.directoryMode)
            return
        }
        do {
            try OwnerOnlyFiles.createDirectory(directory)
        } catch {
            throw BackupError(.unusable, "cannot create \(directory): \(ErrorText.describe(error))")
        }
    }

    /// Writes `bytes` to `path` (0600) through a temporary name, fsync'd, then renamed into place.
    static func writeOwnerOnly(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, OwnerOnlyFiles.fileMode)
        guard descriptor >= 0 else {
            throw BackupError(.unusable, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, OwnerOnlyFiles.fileMode)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw BackupError(.unusable, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// fsyncs the file at `path` (and makes it 0600).
    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupError(.unusable, "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        fchmod(descriptor, OwnerOnlyFiles.fileMode)
        guard fsync(descriptor) == 0 else { throw BackupError(.unusable, "cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    /// fsyncs the folder holding `path`, so a rename into it survives a crash.
    static func syncDirectory(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
