package import AssentServerCore
import Foundation

/// What `assentd` does before it migrates an SQLite database to a newer schema: a backup beside the database
/// (`<db>.pre-migration-<from>-to-<to>-<timestamp>/`, the format of `assent admin backup`), keeping the newest
/// ``keep`` of them. A migration that goes wrong, or a newer build that has to be rolled back, then has a copy to
/// restore with `assent admin restore`.
package struct PreMigrationBackup: Sendable {
    /// How many pre-migration backups to keep beside the database (older ones are removed); 0 writes none.
    package var keep: Int
    /// The master key ring, stored in the backup as `assent admin backup` stores it.
    package var ring: MasterKeyRing
    /// The version written into the manifest.
    package var toolVersion: String
    /// Told the folder of each backup written (the server logs it).
    package var written: @Sendable (String) -> Void

    /// Creates a policy.
    package init(keep: Int, ring: MasterKeyRing, toolVersion: String, written: @escaping @Sendable (String) -> Void) {
        self.keep = keep
        self.ring = ring
        self.toolVersion = toolVersion
        self.written = written
    }

    /// The part of a folder name that marks a pre-migration backup of the database at `path`.
    static func prefix(of path: String) -> String {
        (path as NSString).lastPathComponent + ".pre-migration-"
    }

    /// Backs up the database at `path` when `connection` (open on it) has schema steps applied and this build has
    /// steps it has not had; then removes all but the newest ``keep``. Returns the folder written, if any. A database
    /// with a step this build does not know is left to the migration to refuse.
    func run(path: String, connection: SQLiteConnection, now: Date = Date()) throws -> String? {
        guard keep > 0, path != ":memory:" else { return nil }
        let contents = try BackupManifest.Contents.read(sqlite: connection)
        let known = SQLiteMigrations.steps.map(\.version)
        let applied = Set(contents.schemaSteps)
        guard !applied.isEmpty, applied.isSubset(of: known), let to = known.max(),
              known.contains(where: { !applied.contains($0) })
        else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmssSSS'Z'"
        let folder = path + ".pre-migration-\(contents.schemaStep)-to-\(to)-\(formatter.string(from: now))"
        _ = try DatabaseBackup.backup(.sqlite(path: path), ring: ring, to: folder, toolVersion: toolVersion, now: now)
        written(folder)
        prune(beside: path)
        return folder
    }

    /// Removes the oldest pre-migration backups of `path` beyond ``keep`` (only folders holding a manifest; the
    /// timestamp ends each name, so the newest sort last).
    func prune(beside path: String) {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        let prefix = Self.prefix(of: path)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(prefix) }
            .filter { FileManager.default.fileExists(atPath: ((folder as NSString).appendingPathComponent($0) as NSString).appendingPathComponent(BackupManifest.fileName)) }
            .sorted { ($0.split(separator: "-").last ?? "") < ($1.split(separator: "-").last ?? "") }
        for name in names.dropLast(keep) {
            try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
        }
    }
}
