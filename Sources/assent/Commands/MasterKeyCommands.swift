import AssentCrypto
import AssentServerCore
import AssentStorage
import Foundation

/// `assent admin master-key ...`: the master key ring of assentd's database — show it, add a version (rotate), retire
/// one (``MasterKeyRing``, ``MasterKeyRotation``; the runbook is in docs/operations.md).
enum MasterKeyCommands {
    /// The `master-key` group.
    static let group = Command.group(
        "master-key", "rotate and retire versions of the master key ring (the key file beside the database)",
        details: """
            The ring is the master key file (master.key beside an SQLite database, or ASSENT_MASTER_KEY_FILE); a
            key given as ASSENT_MASTER_KEY cannot be rotated: move it into a file first. Running assentd instances read
            the file again every --master-key-reload seconds, on SIGHUP, and when they meet a version they lack.
            """,
        [status, rotate, retire])

    /// What `status` prints with `--json`.
    struct StatusJSON: Encodable {
        struct Version: Encodable {
            let version: Int
            let retired: Bool
            /// Tenants whose secret key was derived from this version.
            let tenantSecrets: Int
        }
        let file: String
        let current: Int
        let versions: [Version]
    }

    /// What `rotate` and `retire` print with `--json`.
    struct ChangeJSON: Encodable {
        let file: String
        let current: Int
        let retired: [Int]
        let pushCredentialTenants: Int
        let powerAuthSecrets: Int
        let auditedTenants: Int
    }

    static let status = Command.leaf(
        "status", "list the ring's versions, which is current, and how many tenant secrets each still derives",
        options: [TenantDatabase.option]
    ) { invocation in
        let (file, ring) = try ringFile(invocation)
        let tenants = try await TenantDatabase.withStore(invocation) { store, _ in try await store.tenants() }
        let json = StatusJSON(file: file, current: ring.current, versions: ring.versions.map { version in
            .init(version: version.number, retired: version.retired,
                  tenantSecrets: tenants.filter { $0.secretKeyRingVersion == version.number }.count)
        })
        try invocation.output.result(json) {
            Table.render(json.versions, empty: "No versions.", header: ["VERSION", "STATE", "TENANT SECRETS"]) { version in
                [String(version.version), version.version == ring.current ? "current" : version.retired ? "retired" : "active",
                 String(version.tenantSecrets)]
            }
        }
    }

    static let rotate = Command.leaf(
        "rotate", "add a new master key version and make it current; re-seal push credentials and PowerAuth secrets",
        details: """
            Writes the new ring first (running instances pick it up), then re-seals every tenant's APNs/FCM credentials
            (with an audit entry master_key.rotated in the same transaction) and every PowerAuth secret (one
            transaction) under the new version, and records the rotation in every tenant's audit chain. Tokens,
            nonces and console sessions made under older versions keep working until they expire; each tenant's
            secret key moves to the new version at its next rotate-secret. Safe to run again.
            """,
        options: [TenantDatabase.option]
    ) { invocation in
        let (file, ring) = try ringFile(invocation)
        let rotated = ring.rotated(adding: SecureRandom.bytes(32))
        let summary = try await TenantDatabase.withStore(invocation) { store, _ in
            try write(rotated, to: file)
            return try await MasterKeyRotation(store: store, keys: MasterKeys(rotated), clock: .system).apply(
                .masterKeyRotated, details: ["from": String(ring.current), "to": String(rotated.current)])
        }
        try invocation.output.result(changeJSON(file, rotated, summary)) {
            """
            Master key version \(rotated.current) is current (was \(ring.current)); \(file) holds the ring.
            Re-sealed the push credentials of \(summary.pushCredentialTenants) tenant(s) and \(summary.powerAuthSecrets) \
            PowerAuth secret(s); recorded the rotation in \(summary.auditedTenants) audit chain(s).
            Rotate each tenant's secret key (assent admin tenant rotate-secret) before retiring version \(ring.current).
            """
        }
    }

    static let retire = Command.leaf(
        "retire", "retire a master key version: it signs and unseals nothing from now on (audit MACs still verify)",
        details: """
            Refused for the current version, and while any tenant's secret key was derived from the version (rotate
            those tenants' secrets first; `status` counts them). Anything still sealed under it (written by an
            instance that had not read the new ring yet) is re-sealed under the current version first. Tokens signed
            under the version stop verifying once the instances have read the ring again.
            """,
        options: [TenantDatabase.option, .bareWord("--version", "VERSION", "the version to retire (also a bare word)")]
    ) { invocation in
        guard let text = invocation.options.string("--version"), let version = Int(text) else {
            throw CLIError.usage("give the version to retire: assent admin master-key retire VERSION")
        }
        let (file, ring) = try ringFile(invocation)
        let retired = try translating { try ring.retiring(version) }
        let summary = try await TenantDatabase.withStore(invocation) { store, _ in
            let rotation = MasterKeyRotation(store: store, keys: MasterKeys(ring), clock: .system)
            let users = try await rotation.tenantsUsing(version)
            guard users.isEmpty else {
                throw CLIError.failure(
                    "version \(version) still derives the secret key of \(users.count) tenant(s) (\(users.prefix(5).joined(separator: ", "))\(users.count > 5 ? ", ..." : "")): rotate their secrets first (assent admin tenant rotate-secret --tenant ID)",
                    errorCode: "master_key_in_use")
            }
            // Re-seal stragglers under the current version while the retiring one still opens them, then retire it.
            let summary = try await rotation.apply(.masterKeyRetired, details: ["version": String(version)])
            try write(retired, to: file)
            return summary
        }
        try invocation.output.result(changeJSON(file, retired, summary)) {
            "Master key version \(version) is retired; \(file) holds the ring. Current version: \(retired.current)."
        }
    }

    /// The ring file of the database the command names, and the ring in it. Refuses `ASSENT_MASTER_KEY` (nothing to
    /// rewrite) and a missing file (a key made up now would derive nothing the database holds).
    static func ringFile(_ invocation: Invocation) throws -> (String, MasterKeyRing) {
        let location = try TenantDatabase.location(
            invocation.options.string(TenantDatabase.option.name) ?? TenantDatabase.defaultPath)
        let environment = ProcessInfo.processInfo.environment
        if let base64 = environment["ASSENT_MASTER_KEY"], !base64.isEmpty {
            throw CLIError.failure(
                "the master key comes from ASSENT_MASTER_KEY, which cannot be rotated: write it into a file (0600), "
                    + "give every assentd --master-key-file PATH and this command ASSENT_MASTER_KEY_FILE, then rotate",
                errorCode: "master_key_\(MasterKeyRingError.Code.notRotatable)")
        }
        let named = environment["ASSENT_MASTER_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let file = location.masterKeyRingFile(base64: nil, file: named), !location.isShared || named != nil else {
            throw CLIError.usage(DatabaseLocation.sharedMasterKeyAdvice)
        }
        guard FileManager.default.fileExists(atPath: file) else {
            throw CLIError.failure("no master key at \(file): name the database's key with ASSENT_MASTER_KEY_FILE", errorCode: "not_found")
        }
        do {
            return (file, try location.loadMasterKey(base64: nil, file: file, warn: { Output.warning($0) }))
        } catch let error as MasterKey.Invalid {
            throw CLIError.usage(error.description)
        }
    }

    static func write(_ ring: MasterKeyRing, to file: String) throws {
        do {
            try MasterKey.save(ring, to: file)
        } catch let error as MasterKey.Invalid {
            throw CLIError.failure(error.description, errorCode: "master_key_unwritable")
        }
    }

    /// Runs `body`, turning a ``MasterKeyRingError`` into a failure with its code (`master_key_currentVersion`, ...).
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MasterKeyRingError {
            throw CLIError.failure(error.reason, errorCode: "master_key_\(error.code)")
        }
    }

    static func changeJSON(_ file: String, _ ring: MasterKeyRing, _ summary: MasterKeyRotation.Summary) -> ChangeJSON {
        ChangeJSON(
            file: file, current: ring.current, retired: ring.retired, pushCredentialTenants: summary.pushCredentialTenants,
            powerAuthSecrets: summary.powerAuthSecrets, auditedTenants: summary.auditedTenants)
    }
}
