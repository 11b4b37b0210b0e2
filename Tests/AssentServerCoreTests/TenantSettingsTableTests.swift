import AssentCrypto
@testable import AssentServerCore
import AssentWire
import Foundation
import Testing

/// The tenant settings table (``TenantSettings/table``): each setting declared once, and every way of reading and
/// writing a setting — typed text, the server API's JSON, the stored JSON — agreeing with the others.
@Suite struct TenantSettingsTableTests {
    /// Settings that differ from the defaults in every entry of the table.
    static var changed: TenantSettings {
        var settings = TenantSettings()
        settings.unenrolledState = .block
        settings.actionRules = ["pay": .init(enrolled: .reviewRequired, unenrolled: nil), "a:b": .init(enrolled: nil, unenrolled: .allow)]
        settings.tokenLifetimeSeconds = 600
        settings.challengeTimeoutSeconds = 300
        settings.signInHistoryRetentionDays = 400
        settings.publicCustomKeys = ["amount", "payee"]
        settings.publicUserCustomKeys = ["name"]
        settings.requireBoundSignature = true
        settings.pushCredentialLifetimeSeconds = 86_400
        settings.numberMatching = true
        settings.anonymousActionCodes = []
        settings.anonymousApprovalFactor = .possessionKnowledge
        settings.requiredApprovalFactor = .possessionBiometry
        settings.approvalFactorRules = ["pay": .possessionKnowledgeBiometry]
        settings.requireActivationCommit = true
        settings.allowLegacyPowerAuth30 = true
        settings.webhookURL = "https://backend.example/hooks"
        settings.maxPendingPushChallenges = 7
        settings.pushThrottleSeconds = 90
        settings.fraudLockSeconds = 0
        settings.maxFailedAttempts = 9
        settings.attestationPolicy = .record
        settings.appleAppIds = ["ABCDE12345.com.example.app"]
        settings.appleAttestationEnvironment = .both
        settings.androidPackages = [.init(packageName: "com.example.app", signingCertificateSha256: [String(repeating: "ab", count: 32)])]
        settings.androidMinimumSecurityLevel = .strongbox
        settings.androidRequireLockedBootloader = false
        settings.requireAttestedApprovals = true
        settings.attestedApprovalActions = ["pay"]
        return settings
    }

    @Test func `names, flags and labels are each used once, and every setting differs in the changed sample`() {
        let table = TenantSettings.table
        #expect(Set(table.map(\.name)).count == table.count)
        #expect(Set(table.map(\.flag)).count == table.count)
        #expect(Set(table.map(\.label)).count == table.count)
        #expect(table.allSatisfy { $0.flag.hasPrefix("--") && !$0.effect.isEmpty && $0.effect.hasSuffix(".") })
        for setting in table {
            #expect(setting.json(Self.changed) != setting.json(TenantSettings()), "\(setting.name) is not changed by the sample")
        }
    }

    @Test func `every setting's JSON reads back to the same value, checked and as stored`() throws {
        for checked in [true, false] {
            var settings = TenantSettings()
            for setting in TenantSettings.table {
                try setting.readJSON(setting.json(Self.changed), setting.name, checked, &settings)
            }
            #expect(settings == Self.changed)
        }
        #expect(try TenantSettings().applying(Self.changed.json.objectValue!.map { ($0.key, $0.value) }) == Self.changed)
    }

    @Test func `every setting's text reads back to the same value`() throws {
        var settings = TenantSettings()
        for setting in TenantSettings.table {
            try setting.readText(setting.text(Self.changed), setting.label, &settings)
        }
        #expect(settings == Self.changed)
    }

    @Test func `stored settings keep their values and defaults, and ignore keys they do not know`() throws {
        let stored = try JSONEncoder().encode(Self.changed)
        #expect(try JSONDecoder().decode(TenantSettings.self, from: stored) == Self.changed)
        let old = Data(#"{"unenrolledState":"BLOCK","numberMatching":true,"fromANewerVersion":1}"#.utf8)
        var expected = TenantSettings()
        expected.unenrolledState = .block
        expected.numberMatching = true
        #expect(try JSONDecoder().decode(TenantSettings.self, from: old) == expected)
        // Stored values are written by these rules or by tests (a 2-second timeout): only types are checked.
        let short = try JSONDecoder().decode(TenantSettings.self, from: Data(#"{"challengeTimeoutSeconds":2}"#.utf8))
        #expect(short.challengeTimeoutSeconds == 2)
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(TenantSettings.self, from: Data(#"{"challengeTimeoutSeconds":"2"}"#.utf8))
        }
    }

    @Test func `a change with an unknown name or a bad value is refused naming it, and nothing is applied`() {
        let cases: [([(String, JSONValue)], String)] = [
            ([("numberMatching", .bool(true)), ("noSuchSetting", .bool(true))], "noSuchSetting is not a tenant setting"),
            ([("challengeTimeoutSeconds", .number(5))], "challengeTimeoutSeconds must be a whole number from 10 to 600, got 5"),
            ([("challengeTimeoutSeconds", .number(12.5))], "challengeTimeoutSeconds must be a whole number"),
            ([("numberMatching", .string("yes"))], "numberMatching must be true or false"),
            ([("unenrolledState", .string("block"))], "unenrolledState must be one of"),
            ([("actionRules", .object(["bad code": .object([:])]))], "an action code must be"),
            ([("actionRules", .object(["pay": .object(["enrolled": .string("NOPE")])]))], "actionRules.pay.enrolled"),
            ([("approvalFactorRules", .object(["pay": .string("possession_everything")]))], "approvalFactorRules.pay"),
            ([("webhookURL", .string("ftp://x"))], "webhookURL must be an http(s) URL"),
            ([("anonymousActionCodes", .array([.string("ok"), .number(1)]))], "anonymousActionCodes must be an array of strings"),
            ([("push", .object([:]))], "push is not a tenant setting"),
            ([("attestationPolicy", .string("sometimes"))], "attestationPolicy must be one of off, record, require"),
            ([("appleAppIds", .array([.string("com.example.app")]))], "an app id must be TEAMID.bundle.id"),
            ([("androidPackages", .array([.object(["packageName": .string("com.example"),
                "signingCertificateSha256": .array([.string("abc")])])]))], "64 hex characters"),
        ]
        for (changes, message) in cases {
            let error = #expect(throws: AssentError.self) { try TenantSettings().applying(changes) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.reason.contains(message) == true, "\(error?.reason ?? "") should say \(message)")
        }
    }

    @Test func `the anonymous QR allowlist holds at most the codes its own route takes, sent as JSON or as text`() throws {
        let most = AnonymousQRSettings.maxActionCodes
        let codes = (0...most).map { "a\($0)" }
        let setting = try #require(TenantSettings.setting(named: "anonymousActionCodes"))
        // JSON (the server API) and text (the CLI, the console's form) keep the same limit.
        let allowed = try TenantSettings().applying([("anonymousActionCodes", .array(codes.dropLast().map(JSONValue.string)))])
        #expect(allowed.anonymousActionCodes.count == most)
        let json = #expect(throws: AssentError.self) {
            try TenantSettings().applying([("anonymousActionCodes", .array(codes.map(JSONValue.string)))])
        }
        #expect(json?.reason.contains("at most \(most) action codes") == true)
        var settings = TenantSettings()
        let text = #expect(throws: AssentError.self) {
            try setting.readText(codes.joined(separator: ","), setting.label, &settings)
        }
        #expect(text?.reason.contains("at most \(most) action codes") == true)
        #expect(settings == TenantSettings())
        // The attested-approval list keeps its own, larger limit.
        let attested = try TenantSettings().applying([("attestedApprovalActions", .array(codes.map(JSONValue.string)))])
        #expect(attested.attestedApprovalActions.count == most + 1)
    }

    @Test func `snake_case names are read as their camelCase settings and null clears an optional one`() throws {
        var start = TenantSettings()
        start.tokenLifetimeSeconds = 100
        let settings = try start.applying([("max_pending_push_challenges", .number(9)), ("token_lifetime_seconds", .null)])
        #expect(settings.maxPendingPushChallenges == 9)
        #expect(settings.tokenLifetimeSeconds == nil)
    }

    @Test func `docs/tenant-settings.md is what the table writes`() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/tenant-settings.md")
        let markdown = TenantSettingsReference.markdown()
        if ProcessInfo.processInfo.environment["ASSENT_WRITE_DOCS"] == "1" {
            try Data(markdown.utf8).write(to: file)
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == markdown, "docs/tenant-settings.md differs from the settings table: run this test with ASSENT_WRITE_DOCS=1")
        for setting in TenantSettings.table {
            #expect(markdown.contains("`\(setting.name)`"))
        }
    }
}
