import AssentCrypto
import Testing

@Suite struct P256Tests {
    /// RFC 7515 Appendix A.3's P-256 key (d, x, y), an independent vector for scalar import.
    static let rfcD = Base64.decodeURL("jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI")!
    static let rfcX = Base64.decodeURL("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")!
    static let rfcY = Base64.decodeURL("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")!

    @Test func importingAScalarComputesThePublishedPublicKey() throws {
        let key = try P256.PrivateKey(rawRepresentation: Self.rfcD)
        #expect(key.rawRepresentation == Self.rfcD)
        #expect(key.publicKey.x962Uncompressed == [0x04] + Self.rfcX + Self.rfcY)
        // A 33-byte scalar with a leading zero is the same key.
        let padded = try P256.PrivateKey(rawRepresentation: [0] + Self.rfcD)
        #expect(padded.publicKey == key.publicKey)
    }

    @Test func rejectsOutOfRangeScalars() {
        let order = [UInt8](hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        var belowOrder = order
        belowOrder[31] -= 1
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PrivateKey(rawRepresentation: order) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PrivateKey(rawRepresentation: [1] + Self.rfcD) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PrivateKey(rawRepresentation: Array(Self.rfcD.prefix(31))) }
        #expect((try? P256.PrivateKey(rawRepresentation: belowOrder)) != nil)
    }

    @Test func generatedKeysSignAndVerify() throws {
        let key = P256.PrivateKey()
        let message = Array("approve payment 42".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count <= 72)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
        #expect(!P256.PrivateKey().publicKey.isValidSignature(signature, for: message))
        var corrupted = signature
        corrupted[corrupted.count - 1] ^= 1
        #expect(!key.publicKey.isValidSignature(corrupted, for: message))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: message))   // trailing byte
        #expect(!key.publicKey.isValidSignature([], for: message))
        // Round trip through the raw scalar.
        let restored = try P256.PrivateKey(rawRepresentation: key.rawRepresentation)
        #expect(restored.publicKey == key.publicKey)
        #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
    }

    @Test func publicKeyEncodingsRoundTrip() throws {
        for _ in 0..<8 {
            let publicKey = P256.PrivateKey().publicKey
            #expect(publicKey.spkiDER.count == 91)
            #expect(publicKey.x962Uncompressed.count == 65)
            #expect(publicKey.x962Compressed.count == 33)
            #expect(try P256.PublicKey(spkiDER: publicKey.spkiDER) == publicKey)
            #expect(try P256.PublicKey(x962: publicKey.x962Uncompressed) == publicKey)
            #expect(try P256.PublicKey(x962: publicKey.x962Compressed) == publicKey)
            #expect(try P256.PublicKey(x962: publicKey.x962Compressed).hashValue == publicKey.hashValue)
            // A compressed SPKI is accepted and re-exported in the canonical uncompressed form.
            let compressedSPKI = [UInt8](hex: "3039301306072a8648ce3d020106082a8648ce3d030107032200") + publicKey.x962Compressed
            #expect(try P256.PublicKey(spkiDER: compressedSPKI).spkiDER == publicKey.spkiDER)
        }
    }

    @Test func rejectsMalformedPoints() throws {
        let point = P256.PrivateKey().publicKey.x962Uncompressed
        var offCurve = point
        offCurve[64] ^= 1
        var hybrid = point
        hybrid[0] = 0x06 | (point[64] & 1)
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PublicKey(x962: offCurve) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PublicKey(x962: hybrid) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PublicKey(x962: [0]) }  // point at infinity
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PublicKey(x962: Array(point.dropLast())) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PublicKey(spkiDER: P256.PrivateKey().publicKey.spkiDER + [0]) }
        // x = p - 1 style garbage that has no square root: try compressed points until one fails to decompress.
        var rejectedCompressed = 0
        for x in 0..<16 {
            let candidate: [UInt8] = [0x02] + [UInt8](repeating: 0, count: 31) + [UInt8(x)]
            if (try? P256.PublicKey(x962: candidate)) == nil { rejectedCompressed += 1 }
        }
        #expect(rejectedCompressed > 0)
    }

    /// Both sides of ECDH derive the same 32-byte secret.
    @Test func ecdhIsSymmetric() throws {
        let alice = P256.PrivateKey()
        let bob = P256.PrivateKey()
        let ab = try alice.sharedSecret(with: bob.publicKey)
        #expect(ab.count == 32)
        #expect(ab == (try bob.sharedSecret(with: alice.publicKey)))
        #expect(ab != (try alice.sharedSecret(with: P256.PrivateKey().publicKey)))
    }

    /// DER and raw r||s conversions are inverse on fresh signatures, and the converted DER verifies:
    /// this is what makes an ES256 JWT signature checkable by any JOSE implementation.
    @Test func derAndRawConversionsAreInverse() throws {
        let key = P256.PrivateKey()
        for index in 0..<32 {
            let message = Array("message \(index)".utf8)
            let der = try key.signature(for: message)
            let raw = try #require(ECDSASignature.raw(fromDER: der))
            #expect(raw.count == 64)
            let back = try #require(ECDSASignature.der(fromRaw: raw))
            #expect(back == der)
            #expect(key.publicKey.isValidSignature(back, for: message))
        }
        // Small values encode minimally; high-bit values get a sign byte.
        let small = [UInt8](repeating: 0, count: 31) + [1] + [0x80] + [UInt8](repeating: 0, count: 31)
        let der = try #require(ECDSASignature.der(fromRaw: small))
        #expect(der == [0x30, 0x26, 0x02, 0x01, 0x01, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31))
        #expect(ECDSASignature.raw(fromDER: der) == small)
        #expect(ECDSASignature.der(fromRaw: [1, 2, 3]) == nil)
        #expect(ECDSASignature.raw(fromDER: der + [0]) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x01]) == nil)  // negative r
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01]) == nil)  // non-minimal r
    }
}
