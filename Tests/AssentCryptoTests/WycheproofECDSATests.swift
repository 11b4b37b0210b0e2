import AssentCrypto
import Testing

@Suite struct WycheproofECDSATests {
    struct Group: Decodable {
        struct Key: Decodable {
            let curve: String
            let uncompressed: String
        }
        let publicKey: Key
        let publicKeyDer: String
        let sha: String
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let msg: String
        let sig: String
        let result: WycheproofResult
    }

    /// Every valid DER signature verifies and every invalid one (BER, trailing bytes, out-of-range r/s,
    /// wrong values...) is rejected, through keys imported both from SPKI DER and from the raw point.
    /// The file has no `acceptable` cases; the count assertion pins that.
    @Test func verifiesEverySignatureAsWycheproofSays() throws {
        let file = try TestVectors.wycheproof("ecdsa_secp256r1_sha256_test.json", groups: Group.self)
        var counter = CaseCounter()
        for group in file.testGroups {
            #expect(group.publicKey.curve == "secp256r1")
            #expect(group.sha == "SHA-256")
            let fromSPKI = try P256.PublicKey(spkiDER: [UInt8](hex: group.publicKeyDer))
            let fromPoint = try P256.PublicKey(x962: [UInt8](hex: group.publicKey.uncompressed))
            #expect(fromSPKI == fromPoint)
            #expect(fromSPKI.spkiDER == [UInt8](hex: group.publicKeyDer))
            for test in group.tests {
                counter.count(test.result)
                let message = [UInt8](hex: test.msg)
                let signature = [UInt8](hex: test.sig)
                let expected = test.result == .valid
                #expect(fromSPKI.isValidSignature(signature, for: message) == expected,
                        "tcId \(test.tcId) (\(test.comment)) expected \(test.result)")
                #expect(fromPoint.isValidSignature(signature, for: message) == expected, "tcId \(test.tcId)")
            }
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 174)
        #expect(counter.invalid == 310)
        #expect(counter.acceptable == 0)
    }

    /// The DER <-> raw r||s conversion used by ES256 JWTs is lossless on every valid Wycheproof signature,
    /// and the round-tripped DER still verifies.
    @Test func rawConversionRoundTripsValidSignatures() throws {
        let file = try TestVectors.wycheproof("ecdsa_secp256r1_sha256_test.json", groups: Group.self)
        var converted = 0
        for group in file.testGroups {
            let key = try P256.PublicKey(spkiDER: [UInt8](hex: group.publicKeyDer))
            for test in group.tests where test.result == .valid {
                let der = [UInt8](hex: test.sig)
                let raw = try #require(ECDSASignature.raw(fromDER: der), "tcId \(test.tcId)")
                #expect(raw.count == 64)
                let back = try #require(ECDSASignature.der(fromRaw: raw))
                #expect(back == der, "tcId \(test.tcId)")
                #expect(key.isValidSignature(back, for: [UInt8](hex: test.msg)), "tcId \(test.tcId)")
                converted += 1
            }
        }
        #expect(converted == 174)
    }

    /// The DER parser behind the raw conversion accepts only canonical DER: over all 484 signatures
    /// (BER lengths, padded or negative integers, trailing bytes, wrong tags...), whatever it parses
    /// re-encodes to exactly the input bytes.
    @Test func rawConversionAcceptsOnlyCanonicalDER() throws {
        let file = try TestVectors.wycheproof("ecdsa_secp256r1_sha256_test.json", groups: Group.self)
        var checked = 0
        var parsed = 0
        for group in file.testGroups {
            for test in group.tests {
                let der = [UInt8](hex: test.sig)
                if let raw = ECDSASignature.raw(fromDER: der) {
                    #expect(ECDSASignature.der(fromRaw: raw) == der, "tcId \(test.tcId) (\(test.comment))")
                    parsed += 1
                }
                checked += 1
            }
        }
        #expect(checked == 484)
        #expect(parsed >= 174)   // at least every valid signature
        #expect(parsed < checked)
    }
}
