import AssentCrypto
import AssentWire
import Foundation
import Testing

@testable import AssentAttestation

/// Google's sample chains (Tests/Vectors/attestation/android/, from github.com/android/keyattestation) verify to the
/// pinned Google roots at their own creation time; the test authority's chains show the refusals that need a changed
/// chain.
@Suite struct AndroidKeyAttestationTests {
    /// One Google sample: its chain, its expected values (the sample's JSON) and the policy it meets.
    struct Sample {
        let chain: [[UInt8]]
        let description: [String: Any]
        let policy: AndroidKeyAttestationPolicy
        let time: Int64

        init(_ name: String) throws {
            chain = try X509Certificate.certificates(pem: try AttestationVectors.text("android/\(name).pem")).map(\.der)
            description = try AttestationVectors.json("android/\(name).json")
            let software = try #require(description["softwareEnforced"] as? [String: Any])
            let applicationId = try #require(software["attestationApplicationId"] as? [String: Any])
            let packages = try #require(applicationId["packages"] as? [[String: Any]])
            let digests = try #require(applicationId["signatures"] as? [String]).compactMap(Base64.decode)
            let created = try #require(software["creationDateTime"] as? String)
            time = try #require(Int64(created))
            policy = AndroidKeyAttestationPolicy(
                challenge: try AttestationVectors.bytes(description, "attestationChallenge"),
                credentialPublicKey: try X509Certificate(der: chain[0]).publicKeySPKI(),
                packages: [AndroidPackage(packageName: try #require(packages.first?["name"] as? String), signingCertificateSHA256: digests)]
            )
        }
    }

    static let samples = ["tegu-sdk36-TEE_EC_2026_ROOT", "caiman-sdk36-TEE_EC_RKP", "akita-sdk34-TEE_EC_NONE"]

    let verifier = AndroidKeyAttestationVerifier()

    @Test(arguments: samples)
    func aGoogleSampleVerifiesToThePinnedRoots(name: String) throws {
        let sample = try Sample(name)
        var policy = sample.policy
        let hardware = try #require(sample.description["hardwareEnforced"] as? [String: Any])
        let rootOfTrust = try #require(hardware["rootOfTrust"] as? [String: Any])
        let locked = try #require(rootOfTrust["deviceLocked"] as? Bool)
        policy.requireLockedBootloader = locked
        let verdict = try verifier.verify(sample.chain, policy, at: sample.time)
        #expect(verdict.attestationSecurityLevel == .trustedEnvironment)
        #expect(verdict.keyMintSecurityLevel == .trustedEnvironment)
        #expect(verdict.deviceLocked == locked)
        #expect(verdict.verifiedBootState == (rootOfTrust["verifiedBootState"] as? String == "VERIFIED" ? .verified : .unverified))
        #expect(verdict.osVersion.map { String($0) } == hardware["osVersion"] as? String)
        #expect(verdict.osPatchLevel.map { String($0) } == hardware["osPatchLevel"] as? String)
        #expect(verdict.revocationChecked == false)
        #expect(verdict.packageName == policy.packages[0].packageName)
    }

    @Test func the2026SampleEndsInThe2026ECRoot() throws {
        let sample = try Sample("tegu-sdk36-TEE_EC_2026_ROOT")
        let root = try X509Certificate(der: try #require(sample.chain.last))
        #expect(AttestationTrustAnchors.pinned.googleRoots.contains { $0.sha256 == root.sha256Hex })
        #expect(root.subject.contains("Key Attestation CA1"))
    }

    @Test(arguments: samples)
    func aWrongChallengeIsRefused(name: String) throws {
        let sample = try Sample(name)
        var policy = sample.policy
        policy.requireLockedBootloader = false
        policy.challenge = AttestationBinding.bindingHash(challenge: "another", publicKey: "key")
        #expect(throws: AttestationError(.challenge, "")) {
            try verifier.verify(sample.chain, policy, at: sample.time)
        }
    }

    @Test(arguments: samples)
    func aRevokedOrSuspendedSerialInTheStatusListIsRefused(name: String) throws {
        let sample = try Sample(name)
        var policy = sample.policy
        policy.requireLockedBootloader = false
        // A list naming other serials only: checked, and accepted.
        let unrelated = try AndroidRevocationStatusList(
            json: Array(#"{"entries": {"c35747a084470c3135aeefe2b8d40cd6": {"status": "REVOKED", "reason": "KEY_COMPROMISE"}}}"#.utf8))
        let verdict = try verifier.verify(sample.chain, policy, at: sample.time, statusList: unrelated)
        #expect(verdict.revocationChecked)
        // The batch (second) certificate revoked, spelled in upper case with a leading zero; then suspended.
        let serial = try X509Certificate(der: sample.chain[1]).serialHex
        for status in ["REVOKED", "SUSPENDED"] {
            let json = #"{"entries": {"0\#(serial.uppercased())": {"status": "\#(status)"}}}"#
            let list = try AndroidRevocationStatusList(json: Array(json.utf8))
            #expect(throws: AttestationError(.revoked, "")) {
                try verifier.verify(sample.chain, policy, at: sample.time, statusList: list)
            }
        }
    }

    @Test func anUnlockedSampleIsRefusedWhenTheBootloaderMustBeLocked() throws {
        let sample = try Sample("akita-sdk34-TEE_EC_NONE")
        #expect(throws: AttestationError(.bootState, "")) {
            try verifier.verify(sample.chain, sample.policy, at: sample.time)
        }
    }

    @Test func aStrongBoxMinimumRefusesATEESample() throws {
        let sample = try Sample("tegu-sdk36-TEE_EC_2026_ROOT")
        var policy = sample.policy
        policy.minimumSecurityLevel = .strongBox
        #expect(throws: AttestationError(.securityLevel, "")) {
            try verifier.verify(sample.chain, policy, at: sample.time)
        }
    }

    @Test func anotherCredentialKeyIsRefused() throws {
        let sample = try Sample("caiman-sdk36-TEE_EC_RKP")
        var policy = sample.policy
        policy.credentialPublicKey = P256.PrivateKey().publicKey.x962Uncompressed
        #expect(throws: AttestationError(.publicKey, "")) {
            try verifier.verify(sample.chain, policy, at: sample.time)
        }
    }

    @Test func aBrokenOrForeignChainIsRefused() throws {
        let sample = try Sample("tegu-sdk36-TEE_EC_2026_ROOT")
        let other = try Sample("caiman-sdk36-TEE_EC_RKP")
        // The batch certificate of another chain: the leaf is not signed by it.
        var swapped = sample.chain
        swapped[1] = other.chain[1]
        #expect(throws: AttestationError(.chain, "")) {
            try verifier.verify(swapped, sample.policy, at: sample.time)
        }
        // Without its root, the chain's last certificate is an intermediate signed by the pinned root: accepted.
        _ = try verifier.verify(Array(sample.chain.dropLast()), sample.policy, at: sample.time)
        // Cut before the root's child: nothing pinned signs the last certificate.
        #expect(throws: AttestationError(.root, "")) {
            try verifier.verify(Array(sample.chain.prefix(2)), sample.policy, at: sample.time)
        }
        // The batch certificate (valid 2026-02-22 to 2026-03-08) a month after it expired.
        #expect(throws: AttestationError(.validity, "")) {
            try verifier.verify(sample.chain, sample.policy, at: sample.time + 40 * 86_400_000)
        }
        #expect(throws: AttestationError(.tooLarge, "")) {
            try verifier.verify(sample.chain + [[UInt8](repeating: 0, count: 16 * 1024)], sample.policy, at: sample.time)
        }
        #expect(throws: AttestationError(.malformed, "")) {
            try verifier.verify([[0x30, 0x00]], sample.policy, at: sample.time)
        }
    }

    // MARK: The test authority's chains

    struct AuthorityChain {
        let chain: [[UInt8]]
        let policy: AndroidKeyAttestationPolicy
        let time: Int64

        init(_ variant: String) throws {
            let fixture = try AttestationVectors.json("test-authority/android-\(variant).json")
            chain = try #require(fixture["certificateChain"] as? [String]).compactMap(Base64.decode)
            let challenge = try #require(fixture["challenge"] as? String), publicKey = try #require(fixture["publicKey"] as? String)
            let digest = try #require(fixture["signingCertificateSha256"] as? String)
            policy = AndroidKeyAttestationPolicy(
                challenge: AttestationBinding.bindingHash(challenge: challenge, publicKey: publicKey),
                credentialPublicKey: try #require(Base64.decode(publicKey)),
                packages: [AndroidPackage(packageName: try #require(fixture["packageName"] as? String),
                                          signingCertificateSHA256: [Self.bytes(hex: digest)])])
            time = try #require(fixture["verifyAtMilliseconds"] as? Int64)
        }

        static func bytes(hex: String) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return bytes
        }
    }

    func authorityVerifier() throws -> AndroidKeyAttestationVerifier {
        AndroidKeyAttestationVerifier(trustAnchors: try .pinned.adding(pemBundle: try AttestationVectors.text("test-authority/root.pem")))
    }

    @Test func aTestAuthorityChainVerifiesOnlyWithItsRootAdded() throws {
        let good = try AuthorityChain("good")
        let verdict = try authorityVerifier().verify(good.chain, good.policy, at: good.time)
        #expect(verdict.packageName == "dev.assent.example")
        #expect(verdict.verifiedBootState == .verified)
        #expect(verdict.deviceLocked)
        #expect(verdict.osVersion == 160000)
        #expect(verdict.osPatchLevel == 202606)
        #expect(throws: AttestationError(.root, "")) {
            try verifier.verify(good.chain, good.policy, at: good.time)
        }
    }

    @Test func anOperatorAnchorNeedNotBeSelfSigned() throws {
        let good = try AuthorityChain("good")
        let intermediateOnly = AndroidKeyAttestationVerifier(
            trustAnchors: try .pinned.adding(pemBundle: PEM.encode(good.chain[1], label: "CERTIFICATE")))
        for length in [1, 2] {
            _ = try intermediateOnly.verify(Array(good.chain.prefix(length)), good.policy, at: good.time)
        }
        // The full chain ends in the test root, which this verifier does not trust.
        #expect(throws: AttestationError(.root, "")) {
            try intermediateOnly.verify(good.chain, good.policy, at: good.time)
        }
    }

    @Test func aSoftwareLevelKeyIsRefused() throws {
        let chain = try AuthorityChain("software")
        #expect(throws: AttestationError(.securityLevel, "")) {
            try authorityVerifier().verify(chain.chain, chain.policy, at: chain.time)
        }
    }

    @Test func anUnlockedBootloaderIsRefusedUnlessRelaxed() throws {
        let chain = try AuthorityChain("unlocked")
        #expect(throws: AttestationError(.bootState, "")) {
            try authorityVerifier().verify(chain.chain, chain.policy, at: chain.time)
        }
        var relaxed = chain.policy
        relaxed.requireLockedBootloader = false
        let verdict = try authorityVerifier().verify(chain.chain, relaxed, at: chain.time)
        #expect(verdict.verifiedBootState == .unverified)
        #expect(!verdict.deviceLocked)
    }

    @Test func anotherPackageOrSigningCertificateIsRefused() throws {
        let chain = try AuthorityChain("other-package")
        #expect(throws: AttestationError(.appId, "")) {
            try authorityVerifier().verify(chain.chain, chain.policy, at: chain.time)
        }
        let good = try AuthorityChain("good")
        var policy = good.policy
        policy.packages[0].signingCertificateSHA256 = [SHA256.hash(Array("another signing certificate".utf8))]
        #expect(throws: AttestationError(.appId, "")) {
            try authorityVerifier().verify(good.chain, policy, at: good.time)
        }
    }
}

extension AndroidKeyAttestationVerifier {
    /// `verify(certificateChain:policy:statusList:nowMilliseconds:)`, shorter.
    func verify(
        _ chain: [[UInt8]], _ policy: AndroidKeyAttestationPolicy, at time: Int64, statusList: AndroidRevocationStatusList? = nil
    ) throws(AttestationError) -> AndroidKeyVerdict {
        try verify(certificateChain: chain, policy: policy, statusList: statusList, nowMilliseconds: time)
    }
}
