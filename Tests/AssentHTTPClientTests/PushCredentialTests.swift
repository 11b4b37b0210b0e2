@testable import AssentHTTPClient
@testable import AssentServerCore
import AssentLog
import AssentCrypto
import AssentWire
import Foundation
import AssentSync
import Testing

/// Push credentials: sealed under the master key, configured with checks, shown without secrets, and the APNs
/// provider token cached for 50 minutes on an injected clock.
@Suite struct PushCredentialTests {
    static let p8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgn61P0Q1ETPKRdw7G
        kC2Qh8+ErWJ7kGpZpQIp4cjLET6hRANCAATASD/WexE5GzHtVAex2E6ZyzLKFyd1
        R/7qLgAzm4uqnzVywdpld4F07fRfwAuNlnVomoQyBfY/eOBbpDL2n6Uv
        -----END PRIVATE KEY-----
        """
    static let masterKey = [UInt8](repeating: 7, count: 32)
    /// No name resolves: nothing here is sent anywhere.
    static let destinations = OutboundURLPolicy(allowsPrivateAddresses: false, resolver: HostResolver { _ in [] })

    @Test func `a sealed credential opens only with the same master key, tenant and purpose`() throws {
        let sealer = try PushCredentialSealer(masterKey: Self.masterKey)
        let sealed = try sealer.seal("secret", tenantID: "t1", purpose: "apns")
        #expect(!sealed.contains("secret") && sealed.hasPrefix("v1."))
        #expect(try sealer.open(sealed, tenantID: "t1", purpose: "apns") == "secret")
        #expect(throws: (any Error).self) { try sealer.open(sealed, tenantID: "t2", purpose: "apns") }
        #expect(throws: (any Error).self) { try sealer.open(sealed, tenantID: "t1", purpose: "fcm") }
        let other = try PushCredentialSealer(masterKey: [UInt8](repeating: 8, count: 32))
        #expect(throws: (any Error).self) { try other.open(sealed, tenantID: "t1", purpose: "apns") }
    }

    @Test func `configuring APNs checks the key, seals it and shows only its public parts`() throws {
        let editor = try PushSettingsEditor(masterKey: Self.masterKey, destinations: Self.destinations)
        var settings = TenantSettings()
        var change = PushSettingsEditor.Change()
        change.provider = .apns
        change.apnsKeyPEM = Self.p8
        change.apnsKeyID = "K"
        change.apnsTeamID = "T"
        change.apnsTopic = "com.example"
        try editor.apply(change, to: &settings, tenantID: "t1")
        let view = PushSettingsEditor.view(settings)
        #expect(view.apns == .init(configured: true, keyId: "K", teamId: "T", topic: "com.example", environment: "production"))
        let shown = String(decoding: try JSONEncoder().encode(view), as: UTF8.self)
        #expect(!shown.contains("PRIVATE") && !shown.contains("v1."))
        let stored = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        #expect(!stored.contains("MIGHAgEAMBMG"))

        var bad = PushSettingsEditor.Change()
        bad.apnsKeyPEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
        #expect(throws: AssentError(.invalidRequest, "")) { try editor.apply(bad, to: &settings, tenantID: "t1") }
        var environment = PushSettingsEditor.Change()
        environment.apnsEnvironment = "staging"
        #expect(throws: AssentError(.invalidRequest, "")) { try editor.apply(environment, to: &settings, tenantID: "t1") }
        var webhook = PushSettingsEditor.Change()
        webhook.provider = .webhook
        #expect(throws: AssentError(.invalidRequest, "")) { try editor.apply(webhook, to: &settings, tenantID: "t1") }
        #expect(settings.push?.provider == .apns, "a refused change changes nothing")
    }

    @Test func `the APNs provider token is reused for 50 minutes, then renewed`() throws {
        let now = AssentLock<Int64>(1_800_000_000_000)
        let clock = WallClock { now.withLock { $0 } }
        let editor = try PushSettingsEditor(masterKey: Self.masterKey, destinations: Self.destinations)
        var settings = TenantSettings()
        var change = PushSettingsEditor.Change()
        change.provider = .apns
        change.apnsKeyPEM = Self.p8
        change.apnsKeyID = "KEYID"
        change.apnsTeamID = "TEAMID"
        change.apnsTopic = "com.example"
        try editor.apply(change, to: &settings, tenantID: "t1")
        let tenant = Tenant(id: "t1", name: "T", secretHash: [], secretVersion: 1, keyVersion: 1, settings: settings, createdAt: 0)
        let client = try HTTP2Client()
        defer { client.stop() }
        let sender = APNsSender(
            client: client, sealer: try PushCredentialSealer(masterKey: Self.masterKey), clock: clock, options: .init())
        let apns = try #require(settings.push?.apns)
        let first = try sender.providerToken(tenant: tenant, apns: apns)
        let key = try P256.PrivateKey(pkcs8PEM: Self.p8)
        let parts = first.split(separator: ".").map(String.init)
        let raw = try #require(Base64.decodeURL(parts[2]))
        let der = try #require(ECDSASignature.der(fromRaw: raw))
        #expect(key.publicKey.isValidSignature(der, for: Array((parts[0] + "." + parts[1]).utf8)))
        let claims = try #require(Base64.decodeURL(parts[1]))
        #expect(String(decoding: claims, as: UTF8.self) == #"{"iss":"TEAMID","iat":1800000000}"#)
        now.withLock { $0 += 49 * 60_000 }
        #expect(try sender.providerToken(tenant: tenant, apns: apns) == first)
        now.withLock { $0 += 60_000 }
        let renewed = try sender.providerToken(tenant: tenant, apns: apns)
        #expect(renewed != first)
        #expect(JWT.unverifiedKeyID(renewed) == "KEYID")
    }
}
