import AssentCrypto
import Testing

@testable import AssentAttestation

/// App Attest assertions made here with a real P-256 key, as an iPhone's App Attest key makes them: each step of
/// Apple's "Validating assertions" accepts the genuine one and refuses its own mutation.
@Suite struct AppAttestAssertionVerifierTests {
    let key = P256.PrivateKey()
    let appId = "TESTTEAM01.dev.assent.example"
    let clientDataHash = SHA256.hash(Array("assent-bound-v1\napprove\ncredential\nchallenge\n".utf8))
    let verifier = AppAttestAssertionVerifier()

    /// CBOR `{"signature": …, "authenticatorData": …}` signed by `signer` over SHA-256(authenticatorData ‖ hash).
    func assertion(
        counter: UInt32, appId: String? = nil, hash: [UInt8]? = nil, signer: P256.PrivateKey? = nil
    ) throws -> [UInt8] {
        let rpIdHash = SHA256.hash(Array((appId ?? self.appId).utf8))
        let authenticatorData = rpIdHash + [0x00] + withUnsafeBytes(of: counter.bigEndian, Array.init)
        let signature = try (signer ?? key).signature(for: SHA256.hash(authenticatorData + (hash ?? clientDataHash)))
        return Self.map([("signature", signature), ("authenticatorData", authenticatorData)])
    }

    func verify(_ assertion: [UInt8], after last: UInt32 = 0) throws(AttestationError) -> AppAttestAssertionVerdict {
        try verifier.verify(
            assertion, clientDataHash: clientDataHash, publicKey: key.publicKey.x962Uncompressed, appIds: [appId],
            lastCounter: last)
    }

    @Test func aGenuineAssertionVerifiesAndReportsItsCounterAndApp() throws {
        let verdict = try verify(try assertion(counter: 7), after: 6)
        #expect(verdict.counter == 7)
        #expect(verdict.appId == appId)
    }

    @Test func aReplayedCounterIsRefused() throws {
        #expect(throws: AttestationError(.counter, "")) { try verify(try assertion(counter: 7), after: 7) }
    }

    @Test func aCounterBelowTheLastOneSeenIsRefused() throws {
        #expect(throws: AttestationError(.counter, "")) { try verify(try assertion(counter: 3), after: 7) }
        #expect(throws: AttestationError(.counter, "")) { try verify(try assertion(counter: 0), after: 0) }
    }

    @Test func anAssertionOverAnotherDecisionIsRefusedAtTheSignature() throws {
        let other = SHA256.hash(Array("assent-bound-v1\ndeny\ncredential\nchallenge\n".utf8))
        #expect(throws: AttestationError(.signature, "")) { try verify(try assertion(counter: 1, hash: other)) }
    }

    @Test func anAssertionByAnotherKeyIsRefusedAtTheSignature() throws {
        #expect(throws: AttestationError(.signature, "")) { try verify(try assertion(counter: 1, signer: P256.PrivateKey())) }
    }

    @Test func aFlippedByteOfTheAuthenticatorDataBreaksTheSignature() throws {
        let rpIdHash = SHA256.hash(Array(appId.utf8))
        let authenticatorData = rpIdHash + [0x00, 0, 0, 0, 2]
        let signature = try key.signature(for: SHA256.hash(authenticatorData + clientDataHash))
        let tampered = Self.map([("signature", signature), ("authenticatorData", authenticatorData.flipping(36))])
        #expect(throws: AttestationError(.signature, "")) { try verify(tampered) }
    }

    @Test func anAssertionForAnotherAppIsRefusedAtTheAppId() throws {
        #expect(throws: AttestationError(.appId, "")) { try verify(try assertion(counter: 1, appId: "TESTTEAM01.other.app")) }
    }

    @Test func malformedAssertionsAreRefusedNamingMalformed() throws {
        let good = try assertion(counter: 1)
        // Not CBOR, a map without the signature, and authenticator data shorter than its 37 bytes.
        for bad in [[0xff], Self.map([("authenticatorData", [UInt8](repeating: 0, count: 37))]),
                    Self.map([("signature", [1, 2, 3]), ("authenticatorData", [1, 2, 3])]), Array(good.prefix(20))] {
            #expect(throws: AttestationError(.malformed, "")) { try verify(bad) }
        }
    }

    @Test func anAssertionOverTheSizeLimitIsRefusedBeforeParsing() throws {
        let big = [UInt8](repeating: 0xff, count: AttestationLimits.maximumDecodedBytes + 1)
        #expect(throws: AttestationError(.tooLarge, "")) { try verify(big) }
    }

    /// A CBOR map of text keys to byte strings (what an assertion is).
    static func map(_ entries: [(String, [UInt8])]) -> [UInt8] {
        func head(_ major: UInt8, _ count: Int) -> [UInt8] {
            switch count {
            case ..<24: [major << 5 | UInt8(count)]
            case ..<256: [major << 5 | 24, UInt8(count)]
            default: [major << 5 | 25, UInt8(count >> 8), UInt8(count & 0xff)]
            }
        }
        return entries.reduce(head(5, entries.count)) { out, entry in
            out + head(3, entry.0.utf8.count) + Array(entry.0.utf8) + head(2, entry.1.count) + entry.1
        }
    }
}
