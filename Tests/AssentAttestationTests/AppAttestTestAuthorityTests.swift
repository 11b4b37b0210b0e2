import AssentCrypto
import AssentWire
import Foundation
import Testing

@testable import AssentAttestation

/// App Attest objects from the test authority (Tests/tools/attestation_test_authority.py), trusted as an operator root:
/// the development environment, Assent's binding hash, and assertions with their counter.
@Suite struct AppAttestTestAuthorityTests {
    let fixture: [String: Any]
    let verifier: AppAttestVerifier
    let appId: String
    let time: Int64

    init() throws {
        fixture = try AttestationVectors.json("test-authority/appattest-development.json")
        let root = try AttestationVectors.text("test-authority/root.pem")
        verifier = AppAttestVerifier(trustAnchors: try .pinned.adding(pemBundle: root))
        appId = try #require(fixture["appId"] as? String)
        time = try #require(fixture["verifyAtMilliseconds"] as? Int64)
    }

    private func attest(_ environments: Set<AppAttestEnvironment>) throws(AttestationError) -> AppAttestVerdict {
        let object = (try? AttestationVectors.bytes(fixture, "attestationObject")) ?? []
        let keyId = (try? AttestationVectors.bytes(fixture, "keyId")) ?? []
        let challenge = fixture["challenge"] as? String ?? "", publicKey = fixture["publicKey"] as? String ?? ""
        return try verifier.verifyAttestation(
            object, keyId: keyId, clientDataHash: AttestationBinding.bindingHash(challenge: challenge, publicKey: publicKey),
            policy: AppAttestPolicy(appIds: [appId], environments: environments), nowMilliseconds: time)
    }

    @Test func theBindingHashIsTheDocumentedRule() throws {
        let expected = SHA256.hash(Array("assent-attest-v1|abc|BKey".utf8))
        #expect(AttestationBinding.bindingHash(challenge: "abc", publicKey: "BKey") == expected)
        #expect(try AttestationVectors.bytes(fixture, "clientDataHash")
            == AttestationBinding.bindingHash(challenge: try #require(fixture["challenge"] as? String),
                                              publicKey: try #require(fixture["publicKey"] as? String)))
    }

    @Test func theDevelopmentAaguidIsRefusedUnderProduction() {
        #expect(throws: AttestationError(.environment, "")) { try attest([.production]) }
    }

    @Test func theDevelopmentAaguidIsAcceptedWhenDevelopmentIsAllowed() throws {
        let verdict = try attest([.production, .development])
        #expect(verdict.environment == .development)
        #expect(verdict.appId == appId)
        #expect(verdict.receipt == Array("test receipt".utf8))
    }

    @Test func theTestAuthorityIsNotTrustedWithoutTheOperatorRoot() throws {
        let pinnedOnly = AppAttestVerifier()
        #expect(throws: AttestationError(.root, "")) {
            try pinnedOnly.verifyAttestation(
                (try? AttestationVectors.bytes(fixture, "attestationObject")) ?? [], keyId: [], clientDataHash: [],
                policy: AppAttestPolicy(appIds: [appId], environments: [.development]), nowMilliseconds: time)
        }
    }

    @Test func anOperatorAnchorNeedNotBeSelfSigned() throws {
        let object = try AttestationVectors.bytes(fixture, "attestationObject")
        let intermediate = try #require(try CBORReader.decode(object)["attStmt"]?["x5c"]?.array?[1].bytes)
        let anchors = try AttestationTrustAnchors.pinned.adding(pemBundle: PEM.encode(intermediate, label: "CERTIFICATE"))
        let verifier = AppAttestVerifier(trustAnchors: anchors)
        let keyId = try AttestationVectors.bytes(fixture, "keyId")
        let clientDataHash = try AttestationVectors.bytes(fixture, "clientDataHash")
        let verdict = try verifier.verifyAttestation(
            object, keyId: keyId, clientDataHash: clientDataHash,
            policy: AppAttestPolicy(appIds: [appId], environments: [.development]), nowMilliseconds: time)
        #expect(verdict.environment == .development)
    }

    @Test func anAssertionVerifiesAndItsCounterMustGrow() throws {
        let key = try attest([.development]).publicKey
        let assertion = try AttestationVectors.bytes(fixture, "assertion")
        let clientDataHash = try AttestationVectors.bytes(fixture, "assertionClientDataHash")
        func verify(
            _ clientDataHash: [UInt8], appIds: [String]? = nil, after last: UInt32
        ) throws(AttestationError) -> AppAttestAssertionVerdict {
            try AppAttestAssertionVerifier().verify(
                assertion, clientDataHash: clientDataHash, publicKey: key, appIds: appIds ?? [appId], lastCounter: last)
        }
        let verdict = try verify(clientDataHash, after: 0)
        #expect(verdict.counter == 1)
        #expect(verdict.appId == appId)
        // The same assertion again (a replay), and after a later one (a rollback).
        for last: UInt32 in [1, 5] {
            #expect(throws: AttestationError(.counter, "")) {
                try verify(clientDataHash, after: last)
            }
        }
        #expect(throws: AttestationError(.signature, "")) {
            try verify(clientDataHash.flipping(0), after: 0)
        }
        #expect(throws: AttestationError(.appId, "")) {
            try verify(clientDataHash, appIds: ["TEAM.other"], after: 0)
        }
        #expect(throws: AttestationError(.malformed, "")) {
            try AppAttestAssertionVerifier().verify([0xa0], clientDataHash: clientDataHash, publicKey: key, appIds: [appId], lastCounter: 0)
        }
    }
}
