import AssentCrypto
import Foundation
import Testing

@testable import AssentAttestation

/// Apple's guide sample (Tests/Vectors/attestation/apple/apple-app-attest-guide.json) verifies at its verifyAt time
/// against the pinned root, and each mutation fails exactly the step it touches.
@Suite struct AppAttestGuideTests {
    let guide: [String: Any]
    let object: [UInt8]
    let keyId: [UInt8]
    let appId: String
    /// The guide's clientDataHash rule (its `note`): the raw UTF-8 challenge.
    let clientDataHash: [UInt8]
    /// 2024-04-18T00:00:00Z, the guide's verifyAt.
    let verifyAt: Int64 = 1_713_398_400_000
    let verifier = AppAttestVerifier()

    init() throws {
        guide = try AttestationVectors.json("apple/apple-app-attest-guide.json")
        object = try AttestationVectors.bytes(guide, "attestationObject")
        keyId = try AttestationVectors.bytes(guide, "keyId")
        appId = try #require(guide["appId"] as? String)
        clientDataHash = Array(try #require(guide["serverChallenge"] as? String).utf8)
        #expect(guide["verifyAt"] as? String == "2024-04-18T00:00:00Z")
    }

    private func verify(
        _ object: [UInt8]? = nil, keyId: [UInt8]? = nil, clientDataHash: [UInt8]? = nil, appIds: [String]? = nil,
        environments: Set<AppAttestEnvironment> = [.production], at time: Int64? = nil
    ) throws(AttestationError) -> AppAttestVerdict {
        try verifier.verifyAttestation(
            object ?? self.object, keyId: keyId ?? self.keyId, clientDataHash: clientDataHash ?? self.clientDataHash,
            policy: AppAttestPolicy(appIds: appIds ?? [appId], environments: environments), nowMilliseconds: time ?? verifyAt)
    }

    private func failedStep(_ body: () throws(AttestationError) -> AppAttestVerdict) -> AttestationError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func theGuideSampleVerifiesWithItsOwnBinding() throws {
        let verdict = try verify(appIds: ["TEAMID.other.app", appId])
        #expect(verdict.appId == appId)
        #expect(verdict.environment == .production)
        #expect(verdict.keyId == keyId)
        #expect(SHA256.hash(verdict.publicKey) == keyId)
        #expect(verdict.publicKey.count == 65)
        #expect(!verdict.receipt.isEmpty)
        // The guide's expected intermediate values.
        let authData = try #require(try CBORReader.decode(object)["authData"]?.bytes)
        #expect(Base64.encode(SHA256.hash(authData + clientDataHash)) == (try #require((guide["expected"] as? [String: Any])?["nonce"] as? String)))
        #expect(Base64.encode(Array(authData[0..<32])) == (try #require((guide["expected"] as? [String: Any])?["rpIdHash"] as? String)))
    }

    @Test func theObjectAsPublishedIsMalformed() throws {
        let published = try AttestationVectors.bytes(guide, "attestationObjectAsPublished")
        #expect(failedStep { () throws(AttestationError) in try verify(published) } == .malformed)
    }

    @Test func aFlippedByteOfAuthDataFailsTheNonce() throws {
        let authData = try #require(try CBORReader.decode(object)["authData"]?.bytes)
        let start = try #require(object.indices.first { object[$0..<min(object.count, $0 + authData.count)].elementsEqual(authData) })
        #expect(failedStep { () throws(AttestationError) in try verify(object.flipping(start + 5)) } == .nonce)
    }

    @Test func anotherClientDataHashFailsTheNonce() {
        #expect(failedStep { () throws(AttestationError) in try verify(clientDataHash: clientDataHash.flipping(0)) } == .nonce)
        let hashed = SHA256.hash(clientDataHash)
        #expect(failedStep { () throws(AttestationError) in try verify(clientDataHash: hashed) } == .nonce)
    }

    @Test func anotherKeyIdFailsTheKeyId() {
        #expect(failedStep { () throws(AttestationError) in try verify(keyId: keyId.flipping(31)) } == .keyId)
    }

    @Test func anotherAppIdFailsTheAppId() {
        #expect(failedStep { () throws(AttestationError) in try verify(appIds: ["0352187391.com.apple.other_app"]) } == .appId)
        #expect(failedStep { () throws(AttestationError) in try verify(appIds: []) } == .appId)
    }

    @Test func aDayAfterTheLeafExpiresFailsTheValidity() {
        // The leaf is valid until 2024-04-20T16:14:53Z.
        let dayAfter: Int64 = (1_713_629_693 + 86_400) * 1000
        #expect(failedStep { () throws(AttestationError) in try verify(at: dayAfter) } == .validity)
        #expect(failedStep { () throws(AttestationError) in try verify(at: 1_713_369_600_000 - 86_400_000) } == .validity)
    }

    @Test func theProductionAaguidIsRefusedWhereOnlyDevelopmentIsAllowed() {
        #expect(failedStep { () throws(AttestationError) in try verify(environments: [.development]) } == .environment)
        #expect(failedStep { () throws(AttestationError) in try verify(environments: [.development, .production]) } == nil)
    }

    @Test func withoutAnAppleRootTheChainFailsTheRoot() throws {
        let otherRoot = try AttestationVectors.text("test-authority/root.pem")
        // Only the test authority as a root: Apple's intermediate has no trusted issuer.
        let anchors = try AttestationTrustAnchors.pinned.adding(pemBundle: otherRoot)
        #expect(anchors.appleRoots.count == 1)
        let leaf = try X509Certificate(der: try #require(try CBORReader.decode(object)["attStmt"]?["x5c"]?.array?[0].bytes))
        #expect(throws: AttestationError(.root, "")) {
            try leaf.verifyChain(intermediates: [], roots: anchors.androidRoots, atSeconds: verifyAt / 1000)
        }
    }

    @Test func anObjectAbove16KiBIsRefusedBeforeParsing() {
        let large = [UInt8](repeating: 0xff, count: AttestationLimits.maximumDecodedBytes + 1)
        #expect(failedStep { () throws(AttestationError) in try verify(large) } == .tooLarge)
    }

    @Test func anotherFormatIsMalformed() {
        // {"fmt": "packed"}
        let packed: [UInt8] = [0xa1, 0x63] + Array("fmt".utf8) + [0x66] + Array("packed".utf8)
        #expect(failedStep { () throws(AttestationError) in try verify(packed) } == .malformed)
    }
}
