import AssentCrypto
import Foundation
import Testing
import AssentTestSupport

/// `assent admin tenant powerauth` and the PowerAuth tenant settings, on a real SQLite database.
@Suite struct PowerAuthAdminCommandTests {
    private func createTenant(_ database: TemporaryDatabase) throws -> String {
        let result = try CLIProcess.run(["admin", "tenant", "create", "--database", database.path, "--json"])
        try #require(result.status == 0, "stderr: \(result.stderr)")
        return try #require(try result.object()["tenantId"] as? String)
    }

    @Test func powerAuthShowsAStableApplication() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        let first = try CLIProcess.run(["admin", "tenant", "powerauth", "--database", database.path, "--tenant", tenant, "--json"])
        try #require(first.status == 0, "stderr: \(first.stderr)")
        let object = try first.object()
        #expect(Base64.decode(object["applicationKey"] as? String ?? "")?.count == 16)
        #expect(Base64.decode(object["applicationSecret"] as? String ?? "")?.count == 16)
        let master = try #require(Base64.decode(object["masterPublicKey"] as? String ?? ""))
        #expect(try P256.PublicKey(x962: master).x962Uncompressed == master)
        let again = try CLIProcess.run(["admin", "tenant", "powerauth", "--database", database.path, "--tenant", tenant, "--json"])
        #expect(try again.object() as NSDictionary == object as NSDictionary)
        let text = try CLIProcess.run(["admin", "tenant", "powerauth", "--database", database.path, "--tenant", tenant])
        #expect(text.stdout.contains("masterPublicKey:   \(object["masterPublicKey"] as! String)"))
        let unknown = try CLIProcess.run(["admin", "tenant", "powerauth", "--database", database.path, "--tenant", "nope"])
        #expect(unknown.status == 1)
    }

    @Test func settingsSetTheFailureLimitAndApprovalFactor() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let tenant = try createTenant(database)
        let base = ["admin", "tenant", "settings", "--database", database.path, "--tenant", tenant, "--json"]
        let changed = try CLIProcess.run(base + ["--max-failed-attempts", "3", "--required-approval-factor", "possession_biometry",
                                                 "--require-activation-commit", "on", "--allow-legacy-powerauth-30", "on"])
        try #require(changed.status == 0, "stderr: \(changed.stderr)")
        let settings = try #require(try changed.object()["settings"] as? [String: Any])
        #expect(settings["maxFailedAttempts"] as? Int == 3)
        #expect(settings["requiredApprovalFactor"] as? String == "possession_biometry")
        #expect(settings["requireActivationCommit"] as? Bool == true)
        #expect(settings["allowLegacyPowerAuth30"] as? Bool == true)
        let cleared = try #require(try CLIProcess.run(base + ["--required-approval-factor", "none"]).object()["settings"] as? [String: Any])
        #expect(cleared["requiredApprovalFactor"] is NSNull)
        #expect(cleared["maxFailedAttempts"] as? Int == 3)
        #expect(cleared["allowLegacyPowerAuth30"] as? Bool == true)
        let legacyOff = try #require(try CLIProcess.run(base + ["--allow-legacy-powerauth-30", "off"]).object()["settings"] as? [String: Any])
        #expect(legacyOff["allowLegacyPowerAuth30"] as? Bool == false)
        let rules = try #require(try CLIProcess.run(base + ["--action-approval-factor", "pay:possession_knowledge_biometry",
                                                            "--action-approval-factor", "wire:possession_biometry"])
            .object()["settings"] as? [String: Any])
        #expect(rules["approvalFactorRules"] as? [String: String] == ["pay": "possession_knowledge_biometry", "wire": "possession_biometry"])
        let removed = try #require(try CLIProcess.run(base + ["--action-approval-factor", "wire:none"]).object()["settings"] as? [String: Any])
        #expect(removed["approvalFactorRules"] as? [String: String] == ["pay": "possession_knowledge_biometry"])
        for bad in [["--max-failed-attempts", "0"], ["--required-approval-factor", "fingerprint"],
                    ["--action-approval-factor", "pay"], ["--action-approval-factor", "pay:face"]] {
            let result = try CLIProcess.run(base + bad)
            #expect(result.status == 2, "\(bad)")
        }
    }
}
