import AssentServerCore
import AssentStorage
import Foundation

/// Opens the database `assentd` uses, named by `--database` or `ASSENT_DATABASE`, for one command: its SQLite file
/// (WAL mode lets this run while `assentd` serves the same file) or its PostgreSQL URL. Without either, the file
/// `assentd` itself defaults to (and `make run` uses), so commands run beside a server started in the same directory
/// find its database.
enum TenantDatabase {
    /// Where `assentd` keeps its database when not told otherwise (relative to the working directory).
    static let defaultPath = ".assent/assent.sqlite"

    /// The `--database` option.
    static let option = Option.optional(
        "--database", "PATH|URL",
        "the database assentd uses (an SQLite path, sqlite:PATH, or a postgres:// URL; default \(defaultPath))",
        environment: "ASSENT_DATABASE")

    /// The `--tenant` option of the commands that act on one tenant in the database.
    static let tenantOption = Option.required("--tenant", "ID", "the tenant")

    /// Opens the database, runs `body` with a tenant directory over it, and always closes it again.
    /// Only `create` may create an SQLite database that does not exist yet; the other commands refuse, so a typo in
    /// the path does not quietly make an empty database.
    static func withDirectory<T>(
        _ invocation: Invocation, mayCreate: Bool = false, _ body: (TenantDirectory) async throws -> T
    ) async throws -> T {
        try await withDirectory(invocation, mayCreate: mayCreate) { directory, _ in try await body(directory) }
    }

    /// Like ``withDirectory(_:mayCreate:_:)``, also handing `body` the master key ring (to seal push credentials).
    static func withDirectory<T>(
        _ invocation: Invocation, mayCreate: Bool = false, _ body: (TenantDirectory, MasterKeys) async throws -> T
    ) async throws -> T {
        try await withStore(invocation, mayCreate: mayCreate) { store, keys in
            try await body(TenantDirectory(store: store, clock: .system, keys: keys), keys)
        }
    }

    /// Opens the database (SQLite or PostgreSQL), runs `body` with the store itself and the master key ring (the
    /// PowerAuth commands need both), and always closes it again.
    static func withStore<T>(
        _ invocation: Invocation, mayCreate: Bool = false, _ body: (any ServerStore, MasterKeys) async throws -> T
    ) async throws -> T {
        let named = invocation.options.string(option.name)
        let location = try location(named ?? defaultPath)
        if !mayCreate, case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            let hint = named == nil
                ? " (the default; name assentd's database with --database PATH|URL or ASSENT_DATABASE)" : ""
            throw CLIError.failure("no database at \(path)\(hint)", errorCode: "not_found")
        }
        let environment = ProcessInfo.processInfo.environment
        // Secrets are derived from assentd's master key, so the CLI uses the same one (created beside a new SQLite
        // database; with PostgreSQL it must be named).
        let keys: MasterKeys
        do {
            keys = MasterKeys(try location.loadMasterKey(
                base64: environment["ASSENT_MASTER_KEY"].flatMap { $0.isEmpty ? nil : $0 },
                file: environment["ASSENT_MASTER_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 },
                warn: { Output.warning($0) }))
        } catch let error as MasterKey.Invalid {
            throw CLIError.usage(error.description)
        }
        let store = try location.open(connections: 2)
        do {
            let result = try await body(store, keys)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    /// The tenant `id` in `store`, or a `not_found` failure.
    static func tenant(_ id: String, in store: any ServerStore) async throws -> Tenant {
        guard let tenant = try await store.tenant(id: id) else {
            throw CLIError.failure("no tenant with id \(id)", errorCode: "not_found")
        }
        return tenant
    }

    /// The tenant `id` in `directory`, or the `not_found` error the directory's own updates give for an unknown tenant.
    static func tenant(_ id: String, in directory: TenantDirectory) async throws -> Tenant {
        guard let tenant = try await directory.all().first(where: { $0.id == id }) else {
            throw AssentError(.notFound, "No tenant with id \(id).")
        }
        return tenant
    }

    /// The database behind a `--database` value, understood the way `assentd` understands it.
    static func location(_ value: String) throws -> DatabaseLocation {
        guard !value.isEmpty else { throw CLIError.usage("--database must not be empty") }
        let location = DatabaseLocation(value)
        if case .sqlite(let path) = location, path.isEmpty {
            throw CLIError.usage("--database names no file: '\(value)'")
        }
        return location
    }
}
