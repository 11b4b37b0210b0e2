import AssentCrypto
import Foundation
import Testing

@testable import AssentAttestation

/// The pinned roots are the published ones, and an operator's PEM bundle adds roots that logs can name.
@Suite struct AttestationTrustAnchorsTests {
    @Test func thePinnedAppleRootIsTheOneInTheVectors() throws {
        let anchors = AttestationTrustAnchors.pinned
        #expect(anchors.appleRoots.map(\.sha256) == ["1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932"])
        #expect(anchors.appleRoots[0].subject.contains("Apple App Attestation Root CA"))
        let vector = try X509Certificate.certificates(pem: try AttestationVectors.text("apple/apple-app-attestation-root-ca.pem"))
        #expect(vector.map(\.sha256Hex) == anchors.appleRoots.map(\.sha256))
        #expect(anchors.addedRoots.isEmpty)
    }

    @Test func everyRootGooglePublishesIsPinned() throws {
        let data = try Data(contentsOf: AttestationVectors.folder.appendingPathComponent("android/roots.json"))
        let published = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
        let hashes = try published.flatMap { try X509Certificate.certificates(pem: $0).map(\.sha256Hex) }
        #expect(Set(hashes) == Set(AttestationTrustAnchors.pinned.googleRoots.map(\.sha256)))
        #expect(hashes.count == 2)
    }

    @Test func aBundleAddsItsRootsWithSubjectAndHash() throws {
        let pem = try AttestationVectors.text("test-authority/root.pem")
        let anchors = try AttestationTrustAnchors.pinned.adding(pemBundle: pem + "\n" + pem)
        #expect(anchors.addedRoots.count == 1)  // the same root twice counts once
        let root = try #require(anchors.addedRoots.first)
        #expect(root.subject.contains("CN=Assent Test Attestation Root"))
        #expect(root.sha256 == SHA256.hash(try #require(PEM.der(from: pem, label: "CERTIFICATE"))).map { String(format: "%02x", $0) }.joined())
        #expect(anchors.appAttestRoots.count == 2 && anchors.androidRoots.count == 3)
    }

    @Test func aBundleWithoutCertificatesIsRefused() {
        #expect(throws: AttestationError(.malformed, "")) { try AttestationTrustAnchors.pinned.adding(pemBundle: "no certificate here") }
        #expect(throws: AttestationError(.malformed, "")) {
            try AttestationTrustAnchors.pinned.adding(pemBundle: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        }
    }

    @Test func theStatusListNormalizesSerials() throws {
        let list = try AndroidRevocationStatusList(json: Array(#"{"entries": {"00ABcd": {"status": "REVOKED"}, "12": {"status": "SUSPENDED"}, "13": {"status": "OK"}}}"#.utf8))
        #expect(list.status(ofSerial: "abcd") == .revoked)
        #expect(list.status(ofSerial: "0012") == .suspended)
        #expect(list.status(ofSerial: "13") == nil)
        #expect(throws: AttestationError(.malformed, "")) { try AndroidRevocationStatusList(json: Array("[]".utf8)) }
    }
}
