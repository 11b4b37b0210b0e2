import AssentCrypto
import Testing

@Suite struct WycheproofECDHTests {
    struct Group: Decodable {
        let curve: String
        let encoding: String
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let `public`: String
        let `private`: String
        let shared: String
        let result: WycheproofResult
    }

    /// Wycheproof writes private keys as minimal big-endian integers (Java BigInteger): 1 to 33 bytes.
    /// `PrivateKey(rawRepresentation:)` takes the fixed 32-byte form, so left-pad (or drop the sign byte).
    static func scalar(_ hex: String) -> [UInt8] {
        var bytes = [UInt8](hex: hex)
        while bytes.count > 32, bytes.first == 0 { bytes.removeFirst() }
        return [UInt8](repeating: 0, count: max(0, 32 - bytes.count)) + bytes
    }

    /// Valid cases import and agree on the shared secret; invalid public keys (off-curve points, other
    /// curves, explicit parameters, bad encodings) throw at import or at ECDH.
    ///
    /// Decision on the 230 `acceptable` cases:
    /// - 1 compressed-point SPKI (flag CompressedPublic): ACCEPTED, and the shared secret must match,
    ///   because `PublicKey` supports compressed points on purpose.
    /// - 7 SPKIs with explicit curve parameters whose oddities are unused (flag UnusedParam): REJECTED,
    ///   because Assent accepts only the named-curve encoding (explicit parameters are an attack surface).
    /// - 222 BER / malformed-ASN.1 SPKIs (flag InvalidAsn): REJECTED, because `PublicKey(spkiDER:)`
    ///   accepts only the unique DER encoding.
    @Test func agreesWithWycheproofOnEveryCase() throws {
        let file = try TestVectors.wycheproof("ecdh_secp256r1_test.json", groups: Group.self)
        var counter = CaseCounter()
        var acceptableAccepted: [Int] = []
        var acceptableRejected = 0
        for group in file.testGroups {
            #expect(group.curve == "secp256r1")
            #expect(group.encoding == "asn")
            for test in group.tests {
                counter.count(test.result)
                let privateKey = try P256.PrivateKey(rawRepresentation: Self.scalar(test.private))
                let shared: [UInt8]?
                do {
                    let publicKey = try P256.PublicKey(spkiDER: [UInt8](hex: test.public))
                    shared = try privateKey.sharedSecret(with: publicKey)
                } catch let error as CryptoError {
                    #expect(error.code == .invalidKey, "tcId \(test.tcId): \(error)")
                    shared = nil
                }
                switch test.result {
                case .valid:
                    #expect(shared == [UInt8](hex: test.shared), "tcId \(test.tcId) (\(test.comment))")
                case .invalid:
                    #expect(shared == nil, "tcId \(test.tcId) (\(test.comment)) must be rejected")
                case .acceptable:
                    if let shared {
                        #expect(shared == [UInt8](hex: test.shared), "tcId \(test.tcId)")
                        acceptableAccepted.append(test.tcId)
                        #expect(test.flags.contains("CompressedPublic"), "tcId \(test.tcId) (\(test.comment)) accepted")
                    } else {
                        acceptableRejected += 1
                        #expect(!test.flags.contains("CompressedPublic"), "tcId \(test.tcId) rejected")
                    }
                }
            }
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 330)
        #expect(counter.invalid == 52)
        #expect(counter.acceptable == 230)
        #expect(acceptableAccepted == [2])
        #expect(acceptableRejected == 229)
    }
}
