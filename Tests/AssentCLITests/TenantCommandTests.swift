@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing
import AssentTestSupport

/// `assent admin tenant ...` run as a real process against a real SQLite database in a temporary directory.
@Suite struct TenantCommandTests {
    /// Creates a tenant with `--json` and returns its id and secret key.
    private func createTenant(_ database: TemporaryDatabase, name: String = "Acme") throws -> (id: String, secret: String) {
        let result = try CLIProcess.run(["admin", "tenant", "create", "--database", database.path, "--name", name, "--json"])
        try #require(result.status == 0, "stderr: \(result.stderr)")
        let object = try result.object()
        let id = try #require(object["tenantId"] as? String)
        let secret = try #require(object["secretKey"] as? String)
        #expect(object["name"] as? String == name)
        return (id, secret)
    }

    private func settings(_ database: TemporaryDatabase, _ tenant: String, _ extra: [String] = []) throws -> CLIProcess.Result {
        try CLIProcess.run(["admin", "tenant", "settings", "--database", database.path, "--tenant", tenant, "--json"] + extra)
    }

    /// The secret keys that open the tenant, checked in-process through the server's own directory.
    private func tenantID(_ database: TemporaryDatabase, secret: String) async throws -> String? {
        let store = try SQLiteStore(path: database.path)
        let ring = try DatabaseLocation(database.path).loadMasterKey(base64: nil, file: nil)
        let tenant = try await TenantDirectory(store: store, clock: .system, keys: MasterKeys(ring))
            .tenant(secret: secret)
        await store.close()
        return tenant?.id
    }

    @Test func createPrintsTheTenantAndAWorkingSecretKey() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        #expect(tenant.secret.hasPrefix("sk_"))
        #expect(try await tenantID(database, secret: tenant.secret) == tenant.id)
    }

    @Test func createWithoutJSONPrintsTheSecretForPeople() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let result = try CLIProcess.run(["admin", "tenant", "create", "--database", database.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("tenant ID:"))
        #expect(result.stdout.contains("secret key: sk_"))
        #expect(result.stdout.contains("\"\(TenantCommandsName.defaultName)\""))
    }

    @Test func aBlankNameIsAUsageError() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let result = try CLIProcess.run(["admin", "tenant", "create", "--database", database.path, "--name", "  "])
        #expect(result.status == 2)
        #expect(result.stderr.contains("A tenant name must have 1 to 200 characters."))
        #expect(result.stdout.isEmpty)
    }

    @Test func listShowsTenantsButNeverSecrets() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let first = try createTenant(database, name: "First")
        let second = try createTenant(database, name: "Second")

        let json = try CLIProcess.run(["admin", "tenant", "list", "--database", database.path, "--json"])
        #expect(json.status == 0)
        let list = try #require(try json.json() as? [[String: Any]])
        #expect(list.compactMap { $0["tenantId"] as? String } == [first.id, second.id])
        #expect(list.compactMap { $0["name"] as? String } == ["First", "Second"])
        #expect(list.allSatisfy { $0["secretKey"] == nil && $0["secretHash"] == nil })

        let text = try CLIProcess.run(["admin", "tenant", "list", "--database", database.path])
        #expect(text.status == 0)
        #expect(text.stdout.contains(first.id) && text.stdout.contains(second.id))
        for output in [json.stdout, text.stdout] {
            #expect(!output.contains(first.secret) && !output.contains(second.secret) && !output.contains("sk_"))
        }
    }

    @Test func rotateSecretReplacesTheKeyAndTheOldOneStopsWorking() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        let result = try CLIProcess.run(
            ["admin", "tenant", "rotate-secret", "--database", database.path, "--tenant", tenant.id, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try result.object()
        let newSecret = try #require(object["secretKey"] as? String)
        #expect(object["tenantId"] as? String == tenant.id)
        #expect(newSecret != tenant.secret)
        #expect(try await tenantID(database, secret: newSecret) == tenant.id)
        #expect(try await tenantID(database, secret: tenant.secret) == nil)
    }

    @Test func settingsRoundTrip() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)

        let defaults = try settings(database, tenant.id).object()
        let initial = try #require(defaults["settings"] as? [String: Any])
        #expect(initial["unenrolledState"] as? String == "ALLOW")
        #expect((initial["actionRules"] as? [String: Any])?.isEmpty == true)
        #expect(initial["tokenLifetimeSeconds"] is NSNull)

        let changed = try settings(database, tenant.id, [
            "--unenrolled-state", "block", "--action-rule", "signIn:CHALLENGE_REQUIRED:",
            "--action-rule", "payments:transfer::REVIEW_REQUIRED", "--token-lifetime", "120",
        ])
        #expect(changed.status == 0, "stderr: \(changed.stderr)")
        // Read back in a separate process: what was stored, not what was printed.
        let stored = try #require(try settings(database, tenant.id).object()["settings"] as? [String: Any])
        #expect(stored["unenrolledState"] as? String == "BLOCK")
        #expect(stored["tokenLifetimeSeconds"] as? Int == 120)
        let rules = try #require(stored["actionRules"] as? [String: [String: Any]])
        #expect(rules["signIn"]?["enrolled"] as? String == "CHALLENGE_REQUIRED")
        #expect(rules["signIn"]?["unenrolled"] is NSNull)
        #expect(rules["payments:transfer"]?["enrolled"] is NSNull)
        #expect(rules["payments:transfer"]?["unenrolled"] as? String == "REVIEW_REQUIRED")
        #expect(try changed.object()["settings"] as? NSDictionary == stored as NSDictionary)

        let reverted = try settings(database, tenant.id, [
            "--remove-action-rule", "payments:transfer", "--action-rule", "signIn::", "--token-lifetime", "default",
        ])
        #expect(reverted.status == 0, "stderr: \(reverted.stderr)")
        let final = try #require(try settings(database, tenant.id).object()["settings"] as? [String: Any])
        #expect((final["actionRules"] as? [String: Any])?.isEmpty == true)
        #expect(final["tokenLifetimeSeconds"] is NSNull)
        #expect(final["unenrolledState"] as? String == "BLOCK")
    }

    @Test(arguments: [
        ["--unenrolled-state", "MAYBE"],
        ["--unenrolled-state", "ALLOW", "--action-rule", "signIn:SOMETIMES:"],
        ["--action-rule", "signIn:BLOCK"],
        ["--token-lifetime", "5"],
    ])
    func invalidSettingsAreRefusedAndChangeNothing(_ arguments: [String]) throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        let before = try settings(database, tenant.id).stdout

        let result = try settings(database, tenant.id, arguments)
        #expect(result.status == 2)
        // Asked for --json, a usage mistake is the JSON error envelope on stdout too.
        #expect(try result.object()["errorCode"] as? String == "usage")
        #expect(result.stderr.hasPrefix("error: "))
        #expect(try settings(database, tenant.id).stdout == before)
    }

    @Test func anInvalidStateListsTheAllowedValues() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        let result = try settings(database, tenant.id, ["--unenrolled-state", "MAYBE"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'MAYBE'"))
        #expect(result.stderr.contains(
            "ALLOW, BLOCK, CHALLENGE_REQUIRED, CHALLENGE_FAILED, CHALLENGE_SUCCEEDED, REVIEW_REQUIRED, REVIEW_FAILED, REVIEW_SUCCEEDED"))
    }

    @Test func anUnknownTenantFailsWithTheServerErrorCode() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        _ = try createTenant(database)
        for command in [["rotate-secret"], ["settings"], ["settings", "--unenrolled-state", "BLOCK"]] {
            let text = try CLIProcess.run(["admin", "tenant"] + command + ["--database", database.path, "--tenant", "nope"])
            #expect(text.status == 1)
            #expect(text.stderr.contains("No tenant with id nope"))
            #expect(text.stdout.isEmpty)

            let json = try CLIProcess.run(
                ["admin", "tenant"] + command + ["--database", database.path, "--tenant", "nope", "--json"])
            #expect(json.status == 1)
            #expect(try json.object()["errorCode"] as? String == "not_found")
        }
    }

    @Test func theDatabaseComesFromTheEnvironmentWhenNotGiven() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        let result = try CLIProcess.run(["admin", "tenant", "list", "--json"], environment: ["ASSENT_DATABASE": database.path])
        #expect(result.status == 0)
        #expect(try (result.json() as? [[String: Any]])?.first?["tenantId"] as? String == tenant.id)
    }

    @Test func withoutADatabaseTheServersDefaultIsUsedAndNamedWhenMissing() throws {
        // Run in an empty directory: the default, .assent/assent.sqlite, is relative to it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let assent = try BuiltProduct.path("assent")
        let result = try ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$1\" admin tenant list", directory.path, assent],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no database at .assent/assent.sqlite"))
        #expect(result.stderr.contains("--database"))
        #expect(result.stderr.contains("ASSENT_DATABASE"))
    }

    @Test func onlyCreateMakesANewDatabaseFile() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let list = try CLIProcess.run(["admin", "tenant", "list", "--database", database.path])
        #expect(list.status == 1)
        #expect(list.stderr.contains("no database at"))
        #expect(!FileManager.default.fileExists(atPath: database.path))
        _ = try createTenant(database)
        #expect(FileManager.default.fileExists(atPath: database.path))
    }

    @Test(arguments: [
        ["admin", "tenant", "create", "--database"],
        ["admin", "tenant", "create", "--bogus"],
        ["admin", "tenant", "create", "stray"],
        ["admin", "tenant", "frobnicate"],
        ["admin"],
        [],
    ])
    func commandLineMistakesExitWithStatus2(_ arguments: [String]) throws {
        let result = try CLIProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }
}

/// The default tenant name, spelled here as the CLI spells it.
private enum TenantCommandsName {
    static let defaultName = "Default"
}
