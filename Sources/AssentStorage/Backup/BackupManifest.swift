import AssentCrypto
package import AssentServerCore
import Foundation

/// `manifest.json` of a backup folder: what the database held when the copy was taken (schema, rows per table, each
/// tenant's audit chain head) and a SHA-256 of every other file, so a restore can tell a damaged or incomplete
/// backup from a good one before it writes anything, and check the restored database against it afterwards.
package struct BackupManifest: Codable, Sendable, Equatable {
    /// The manifest's own format; a later format with a higher number is refused by this build.
    package static let currentFormat = 1
    /// The manifest's name in a backup folder.
    package static let fileName = "manifest.json"
    /// The master key ring's name in a backup folder (one key, or a ring: ``MasterKeyRing``).
    package static let masterKeyFileName = "master.key"

    /// Which master key ring versions the backup's `master.key` holds (never the keys).
    package struct KeyRing: Codable, Sendable, Equatable {
        /// The current version.
        package var current: Int
        /// Every version, ascending.
        package var versions: [Int]
        /// The retired versions.
        package var retired: [Int]

        /// The summary of `ring`.
        package init(_ ring: MasterKeyRing) {
            current = ring.current
            versions = ring.versions.map(\.number)
            retired = ring.retired
        }
    }

    /// Where the database's state was read from, and what a restore compares against.
    package struct Contents: Codable, Sendable, Equatable {
        /// The highest schema step applied.
        package var schemaStep: Int
        /// Every schema step applied (numbers need not be contiguous).
        package var schemaSteps: [Int]
        /// Rows in each table.
        package var rowCounts: [String: Int64]
        /// Each tenant's audit chain head, as stored.
        package var auditHeads: [String: AuditHead]
    }

    /// The newest entry of a tenant's audit chain.
    package struct AuditHead: Codable, Sendable, Equatable {
        /// Its sequence number.
        package var sequence: Int64
        /// Its MAC, hex.
        package var mac: String
    }

    /// One file of the backup.
    package struct FileEntry: Codable, Sendable, Equatable {
        /// Its size in bytes.
        package var bytes: Int64
        /// SHA-256 of its content, hex.
        package var sha256: String
    }

    /// ``currentFormat`` when written.
    package var format: Int
    /// `sqlite` or `postgres`.
    package var database: String
    /// The file holding the database (`database.sqlite`, or `database.pgdump` from `pg_dump --format=custom`).
    package var databaseFile: String
    /// What the database held.
    package var contents: Contents
    /// The version of the tool that made the backup.
    package var toolVersion: String
    /// When the copy was taken, ISO-8601 UTC.
    package var createdAt: String
    /// Every file of the backup but the manifest, by name.
    package var files: [String: FileEntry]
    /// The master key ring versions in `master.key`; nil in a backup made before rings existed (one key, version 1).
    package var masterKeyRing: KeyRing?

    /// Describes `file` in `directory` (size and SHA-256).
    static func entry(for file: String, in directory: String) throws -> FileEntry {
        let path = (directory as NSString).appendingPathComponent(file)
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        return FileEntry(bytes: Int64(data.count), sha256: hex(SHA256.hash([UInt8](data))))
    }

    /// The manifest as written: sorted keys, so two backups of one database compare line by line.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Reads the manifest of the backup in `directory`: a missing or unreadable one is ``BackupError/Code/damaged``.
    package static func read(from directory: String) throws -> BackupManifest {
        let path = (directory as NSString).appendingPathComponent(fileName)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackupError(.damaged, "no backup folder at \(directory)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BackupError(.damaged, "the backup in \(directory) has no \(fileName)")
        }
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: data)
        } catch {
            throw BackupError(.damaged, "\(path) is not a backup manifest (\(error))")
        }
        guard manifest.format <= currentFormat else {
            throw BackupError(.newerSchema, "\(path) has format \(manifest.format); this build reads format \(currentFormat) (use a newer assent)")
        }
        return manifest
    }

    /// Checks every file the manifest lists against its size and SHA-256, and that the database file and the master
    /// key are among them: the first missing, truncated or changed file is named in a ``BackupError/Code/damaged``.
    package func verifyFiles(in directory: String) throws {
        for required in [databaseFile, Self.masterKeyFileName] where files[required] == nil {
            throw BackupError(.damaged, "the manifest in \(directory) lists no \(required)")
        }
        for (name, expected) in files.sorted(by: { $0.key < $1.key }) {
            guard !name.contains("/"), name != "..", name != "." else {
                throw BackupError(.damaged, "the manifest in \(directory) names a file outside the folder: \(name)")
            }
            let path = (directory as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path) else {
                throw BackupError(.damaged, "\(name) is missing from the backup in \(directory)")
            }
            let actual = try Self.entry(for: name, in: directory)
            if actual.bytes != expected.bytes {
                throw BackupError(.damaged, "\(name) in \(directory) has \(actual.bytes) bytes, the manifest says \(expected.bytes) (truncated or changed)")
            }
            if actual.sha256 != expected.sha256 {
                throw BackupError(.damaged, "\(name) in \(directory) does not match its SHA-256 in the manifest (changed or damaged)")
            }
        }
    }

    /// The master key ring kept in the backup (its checksum verified first with ``verifyFiles(in:)``), which must
    /// hold the versions the manifest lists.
    package func masterKeyRing(in directory: String) throws -> MasterKeyRing {
        let path = (directory as NSString).appendingPathComponent(Self.masterKeyFileName)
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        let ring: MasterKeyRing
        do {
            ring = try MasterKeyRing.parse(text, source: "\(Self.masterKeyFileName) in \(directory)")
        } catch let error as MasterKeyRingError {
            throw BackupError(.damaged, error.reason)
        }
        if let listed = masterKeyRing, listed != KeyRing(ring) {
            throw BackupError(.damaged, "\(Self.masterKeyFileName) in \(directory) does not hold the key ring versions the manifest lists")
        }
        return ring
    }

    /// Lower-case hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }
}
