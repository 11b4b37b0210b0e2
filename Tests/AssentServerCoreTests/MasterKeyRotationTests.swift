import AssentCrypto
import AssentWire
import Foundation
@testable import AssentServerCore
import Testing

/// What a master-key rotation does to everything derived from the ring, in process: tokens, sealed push credentials
/// and PowerAuth secrets, nonces and get-challenge messages, and the audit chain — each made under version 1 keeps
/// working after version 2 becomes current, and stops when version 1 is retired (audit MACs excepted).
@Suite struct MasterKeyRotationTests {
    static let first = MasterKeyRing(single: [UInt8](repeating: 1, count: 32))
    static let second = first.rotated(adding: [UInt8](repeating: 2, count: 32))
    static let third = second.rotated(adding: [UInt8](repeating: 3, count: 32))
    static var secondRetired: MasterKeyRing { (try? second.retiring(1)) ?? second }

    let clock = WallClock { 1_800_000_000_000 }
    let tenant = Tenant(
        id: "tenant-a", name: "A", secretHash: [], secretVersion: 1, keyVersion: 1, settings: TenantSettings(), createdAt: 0)
    let action = Action(tenantID: "tenant-a", userID: "u", actionCode: "signIn", idempotencyKey: "k",
                        state: .challengeRequired, now: 0)

    func issuer(_ ring: MasterKeyRing) -> TokenIssuer { TokenIssuer(keys: MasterKeys(ring), clock: clock) }

    // MARK: Tokens

    @Test func `a token signed before a rotation verifies after it and is refused once its version is retired`() throws {
        let old = try issuer(Self.first).issue(kind: .track, tenant: tenant, action: action, scope: nil, lifetime: 600)
        #expect(JWT.unverifiedKeyID(old) == "tenant-a.1")
        #expect(try issuer(Self.second).verify(old, tenant: tenant).sub == "u")

        let new = try issuer(Self.second).issue(kind: .track, tenant: tenant, action: action, scope: nil, lifetime: 600)
        #expect(JWT.unverifiedKeyID(new) == "tenant-a.1~2")
        #expect(TokenIssuer.claimedTenantID(of: new) == "tenant-a")

        #expect(throws: AssentError(.invalidToken, "")) { try issuer(Self.secondRetired).verify(old, tenant: tenant) }
        #expect(try issuer(Self.secondRetired).verify(new, tenant: tenant).sub == "u")
        // A server that has only version 1 refuses version 2's tokens rather than guessing.
        #expect(throws: AssentError(.invalidToken, "")) { try issuer(Self.first).verify(new, tenant: tenant) }
    }

    @Test func `a key id naming another ring version than the one that signed is refused`() throws {
        let token = try issuer(Self.third).issue(kind: .track, tenant: tenant, action: action, scope: nil, lifetime: 600)
        let parts = token.split(separator: ".")
        var header = try #require(Base64.decodeURL(String(parts[0])))
        header = Array(String(decoding: header, as: UTF8.self).replacingOccurrences(of: "~3", with: "~2").utf8)
        let forged = ([Base64.encodeURL(header)] + parts.dropFirst().map(String.init)).joined(separator: ".")
        #expect(throws: AssentError(.invalidToken, "")) { try issuer(Self.third).verify(forged, tenant: tenant) }
        for keyID in ["tenant-a.1~1", "tenant-a.1~02", "tenant-a.1~x", "tenant-a.2~2", "tenant-a.1~2~2"] {
            #expect(TokenIssuer.ringVersion(keyID: keyID, tenant: tenant) == nil, "\(keyID)")
        }
    }

    // MARK: Sealed values

    @Test func `a push credential sealed under version 1 opens after a rotation, re-seals under 2, and not once 1 is retired`() throws {
        let old = try PushCredentialSealer(keys: MasterKeys(Self.first)).seal("p8 key", tenantID: "t", purpose: "apns")
        #expect(old.hasPrefix("v1."))
        let sealer = PushCredentialSealer(keys: MasterKeys(Self.second))
        #expect(try sealer.open(old, tenantID: "t", purpose: "apns") == "p8 key")
        let resealed = try #require(try sealer.resealed(old, tenantID: "t", purpose: "apns"))
        #expect(resealed.hasPrefix("k2.") && PushCredentialSealer.ringVersion(of: resealed) == 2)
        #expect(try sealer.resealed(resealed, tenantID: "t", purpose: "apns") == nil)

        let retired = PushCredentialSealer(keys: MasterKeys(Self.secondRetired))
        #expect(throws: AssentError.self) { try retired.open(old, tenantID: "t", purpose: "apns") }
        #expect(try retired.open(resealed, tenantID: "t", purpose: "apns") == "p8 key")
        #expect(throws: (any Error).self) { try retired.open(resealed, tenantID: "other", purpose: "apns") }
    }

    @Test func `a PowerAuth secret sealed under version 1 opens after a rotation and not once 1 is retired`() throws {
        let secret = [UInt8](repeating: 0xAB, count: 16)
        let old = try SecretSealer(keys: MasterKeys(Self.first)).seal(secret, context: "c")
        #expect(old.first == 1 && SecretSealer.ringVersion(of: old)?.version == 1)
        let new = try SecretSealer(keys: MasterKeys(Self.second)).seal(secret, context: "c")
        #expect(new.first == 2 && SecretSealer.ringVersion(of: new)?.version == 2)
        let retired = SecretSealer(keys: MasterKeys(Self.secondRetired))
        #expect(try SecretSealer(keys: MasterKeys(Self.second)).open(old, context: "c") == secret)
        #expect(try retired.open(new, context: "c") == secret)
        #expect(throws: StoreError.self) { try retired.open(old, context: "c") }
        #expect(throws: StoreError.self) { try retired.open(new, context: "other") }
    }

    // MARK: Nonces

    @Test func `a nonce and a get-challenge message survive one rotation, not two, and not a retirement`() throws {
        let nonce = NonceIssuer(keys: MasterKeys(Self.first), clock: clock).updateNonce(tenantID: "t", authenticatorID: "a")
        let message = NonceIssuer(keys: MasterKeys(Self.first), clock: clock).challengeMessage(tenantID: "t", authenticatorID: "a")
        func accepted(_ ring: MasterKeyRing) -> (Bool, Bool) {
            let issuer = NonceIssuer(keys: MasterKeys(ring), clock: clock)
            return (issuer.openUpdateNonce(id: nonce.id, tenantID: "t", authenticatorID: "a") != nil,
                    issuer.acceptedChallengeMessages(tenantID: "t", authenticatorID: "a").contains(message))
        }
        #expect(accepted(Self.second) == (true, true))
        #expect(accepted(Self.third) == (false, false))
        #expect(accepted(Self.secondRetired) == (false, false))
    }

    // MARK: Audit

    func entries(_ rings: [MasterKeyRing]) -> [AuditEntry] {
        var previous = AuditKey.genesis
        return rings.enumerated().map { index, ring in
            let event = AuditEvent(tenantID: "t", at: Int64(index), kind: .settingsChanged, actor: "cli")
            let entry = AuditKey(keys: MasterKeys(ring)).seal(event, sequence: Int64(index + 1), previous: previous)
            previous = entry.mac
            return entry
        }
    }

    @Test func `a chain verifies across a rotation and a retirement, each entry with its own version`() {
        let chain = entries([Self.first, Self.first, Self.second, Self.second])
        #expect(chain.map(\.mac.count) == [32, 32, 36, 36])
        for ring in [Self.second, Self.secondRetired, Self.third] {
            #expect(AuditChain.verify(chain, tenantID: "t", key: AuditKey(keys: MasterKeys(ring))) == .intact(4))
        }
        // Without version 2 the chain cannot be checked past the rotation.
        #expect(AuditChain.verify(chain, tenantID: "t", key: AuditKey(keys: MasterKeys(Self.first))).firstBadSequence == 3)
    }

    @Test func `an entry MAC'd under an older version after a newer one breaks the chain`() {
        let chain = entries([Self.first, Self.second, Self.first])
        let verification = AuditChain.verify(chain, tenantID: "t", key: AuditKey(keys: MasterKeys(Self.second)))
        #expect(verification.firstBadSequence == 3)
        #expect(verification.problem.contains("version 1 after an entry under version 2"))
    }
}
