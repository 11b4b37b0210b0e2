package import AssentServerCore
import Foundation

extension DatabaseLocation {
    /// Why a PostgreSQL database without a named master key is refused.
    package static let sharedMasterKeyAdvice = """
        --database postgres://... needs the master key named: every assentd instance (and the assent CLI) must use \
        the same one, so give --master-key-file PATH (ASSENT_MASTER_KEY_FILE) or ASSENT_MASTER_KEY
        """

    /// Where the master key lives when only this database is named: `master.key` beside the SQLite file; nil for
    /// PostgreSQL, which is shared by several instances, so its key is never made up beside a database file.
    package var defaultMasterKeyFile: String? {
        guard case .sqlite(let path) = self else { return nil }
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("master.key")
    }

    /// The file the master key ring of this database is read from: nil when `base64` gives the key, else `file`,
    /// else ``defaultMasterKeyFile``.
    package func masterKeyRingFile(base64: String?, file: String?) -> String? {
        base64 != nil ? nil : file ?? defaultMasterKeyFile ?? "master.key"
    }

    /// The master key ring for this database, as `assentd` and the CLI both read it: `base64` when given (one key),
    /// else `file`, else ``defaultMasterKeyFile`` (created when missing). Throws ``MasterKey/Invalid`` for a shared
    /// database whose key is not named, or for a key file every user can read; a group-readable one is reported to
    /// `warn`.
    package func loadMasterKey(base64: String?, file: String?, warn: (String) -> Void = { _ in }) throws -> MasterKeyRing {
        if base64 == nil, file == nil, isShared { throw MasterKey.Invalid(description: Self.sharedMasterKeyAdvice) }
        // A directory named as the database would get a master key made up beside it, in its parent, before the
        // database fails to open: refuse first, with the store's own words, so a start that fails leaves nothing.
        if base64 == nil, file == nil, case .sqlite(let path) = self {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw SQLiteStore.unusable(path, POSIXError(.EISDIR))
            }
        }
        return try MasterKey.load(base64: base64, file: file ?? defaultMasterKeyFile ?? "master.key", warn: warn)
    }
}
