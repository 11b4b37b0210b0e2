import AssentServer
import Foundation

/// Opens the SQLite database `assentd` uses, named by `--database` or `ASSENT_DATABASE`, for one command.
/// SQLite in WAL mode lets this run while `assentd` serves the same file.
enum TenantDatabase {
    /// The `--database` option.
    static let option = Option.required(
        "--database", "PATH", "the SQLite database assentd uses (a path or sqlite:PATH)", environment: "ASSENT_DATABASE")

    /// Opens the database, runs `body` with a tenant directory over it, and always closes it again.
    /// Only `create` may create a database that does not exist yet; the other commands refuse, so a typo in the path
    /// does not quietly make an empty database.
    static func withDirectory<T>(
        _ invocation: Invocation, mayCreate: Bool = false, _ body: (TenantDirectory) async throws -> T
    ) async throws -> T {
        try await withDirectory(invocation, mayCreate: mayCreate) { directory, _ in try await body(directory) }
    }

    /// Like ``withDirectory(_:mayCreate:_:)``, also handing `body` the master key (to seal push credentials).
    static func withDirectory<T>(
        _ invocation: Invocation, mayCreate: Bool = false, _ body: (TenantDirectory, [UInt8]) async throws -> T
    ) async throws -> T {
        let path = try sqlitePath(invocation.options.required(option.name))
        if !mayCreate, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no database at \(path)", errorCode: "not_found")
        }
        var configuration = ServerConfiguration()
        configuration.database = path
        let environment = ProcessInfo.processInfo.environment
        configuration.masterKey = environment["ASSENT_MASTER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.masterKeyFile = environment["ASSENT_MASTER_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        // Secrets are derived from assentd's master key, so the CLI uses the same one (created beside a new database).
        let masterKey = try MasterKey.load(configuration)
        let store = try SQLiteStore(path: path)
        do {
            let result = try await body(TenantDirectory(store: store, clock: .system, masterKey: masterKey), masterKey)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    /// Opens the database and runs `body` with the store itself and the master key (for the PowerAuth commands).
    static func withStore<T>(
        _ invocation: Invocation, _ body: (SQLiteStore, [UInt8]) async throws -> T
    ) async throws -> T {
        let path = try sqlitePath(invocation.options.required(option.name))
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.failure("no database at \(path)", errorCode: "not_found")
        }
        var configuration = ServerConfiguration()
        configuration.database = path
        let environment = ProcessInfo.processInfo.environment
        configuration.masterKey = environment["ASSENT_MASTER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.masterKeyFile = environment["ASSENT_MASTER_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let masterKey = try MasterKey.load(configuration)
        let store = try SQLiteStore(path: path)
        do {
            let result = try await body(store, masterKey)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    /// The file behind a `--database` value, understood the way `assentd` understands it.
    static func sqlitePath(_ value: String) throws -> String {
        guard !value.isEmpty else { throw CLIError.usage("--database must not be empty") }
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            throw CLIError.usage("PostgreSQL is not supported by this build; give the SQLite file assentd uses")
        }
        var configuration = ServerConfiguration()
        configuration.database = value
        let path = configuration.sqlitePath
        guard !path.isEmpty else { throw CLIError.usage("--database names no file: '\(value)'") }
        return path
    }
}
