import AssentCrypto
import Testing

/// Published single vectors for primitives whose Wycheproof files are not in the repository.
@Suite struct PrimitiveKnownAnswerTests {
    /// RFC 7914 §11, the PBKDF2-HMAC-SHA256 vector: P="passwd", S="salt", c=1, dkLen=64.
    @Test func pbkdf2SHA256MatchesRFC7914() throws {
        let dk = try PBKDF2.deriveSHA256(password: Array("passwd".utf8), salt: Array("salt".utf8),
                                         iterations: 1, outputByteCount: 64)
        #expect(dk == [UInt8](hex:
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
    }

    /// RFC 7914 §11, second vector (c = 80000) pins the iteration loop, not just one block.
    @Test func pbkdf2SHA256MatchesRFC7914WithManyIterations() throws {
        let dk = try PBKDF2.deriveSHA256(password: Array("Password".utf8), salt: Array("NaCl".utf8),
                                         iterations: 80000, outputByteCount: 64)
        #expect(dk == [UInt8](hex:
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"))
    }

    @Test func pbkdf2RejectsNonsenseParameters() {
        #expect(throws: CryptoError(.invalidInput, "")) {
            try PBKDF2.deriveSHA256(password: [1], salt: [2], iterations: 0, outputByteCount: 32)
        }
        #expect(throws: CryptoError(.invalidInput, "")) {
            try PBKDF2.deriveSHA1(password: [1], salt: [2], iterations: 1, outputByteCount: 0)
        }
    }

    /// FIPS 180-4 examples: "abc" and the empty string.
    @Test func sha256MatchesFIPS180() {
        #expect(SHA256.hash(Array("abc".utf8)) == [UInt8](hex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(SHA256.hash([]) == [UInt8](hex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
    }

    /// RFC 4231 test case 2 (key shorter than the block) and an empty key.
    @Test func hmacSHA256MatchesRFC4231() {
        let mac = HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(mac == [UInt8](hex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
        #expect(HMACSHA256.isValid(mac, for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        #expect(!HMACSHA256.isValid(Array(mac.dropLast()), for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        // HMAC-SHA256 with an empty key and empty message (well known value).
        #expect(HMACSHA256.authenticate([], key: []) == [UInt8](hex: "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
    }

    /// FIPS 197 Appendix C.1 / C.2 / C.3 single-block encryptions.
    @Test func aesBlockMatchesFIPS197() throws {
        let plaintext = [UInt8](hex: "00112233445566778899aabbccddeeff")
        #expect(try AES.encryptBlock(plaintext, key: [UInt8](hex: "000102030405060708090a0b0c0d0e0f"))
                == [UInt8](hex: "69c4e0d86a7b0430d8cdb78070b4c55a"))
        #expect(try AES.encryptBlock(plaintext, key: [UInt8](hex: "000102030405060708090a0b0c0d0e0f1011121314151617"))
                == [UInt8](hex: "dda97ca4864cdfe06eaf70a0ec0d7191"))
        #expect(try AES.encryptBlock(plaintext, key: [UInt8](hex: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
                == [UInt8](hex: "8ea2b7ca516745bfeafc49904b496089"))
        #expect(throws: CryptoError(.invalidInput, "")) { try AES.encryptBlock([0, 1], key: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError(.invalidKey, "")) { try AES.encryptBlock(plaintext, key: [UInt8](repeating: 0, count: 15)) }
    }

    /// NIST SP 800-38A F.2.1 CBC-AES128 encryption (no padding), and the padding=false length rule.
    @Test func aesCBCWithoutPaddingMatchesSP80038A() throws {
        let key = [UInt8](hex: "2b7e151628aed2a6abf7158809cf4f3c")
        let iv = [UInt8](hex: "000102030405060708090a0b0c0d0e0f")
        let plaintext = [UInt8](hex: "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
        let ciphertext = [UInt8](hex: "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2")
        #expect(try AES.CBC.encrypt(plaintext, key: key, iv: iv, padding: false) == ciphertext)
        #expect(try AES.CBC.decrypt(ciphertext, key: key, iv: iv, padding: false) == plaintext)
        #expect(throws: CryptoError(.invalidInput, "")) { try AES.CBC.encrypt([1, 2, 3], key: key, iv: iv, padding: false) }
        #expect(throws: CryptoError(.invalidInput, "")) { try AES.CBC.decrypt([1, 2, 3], key: key, iv: iv) }
        #expect(throws: CryptoError(.invalidInput, "")) { try AES.CBC.encrypt([1], key: key, iv: [0]) }
    }

    @Test func gcmRejectsBadKeyNonceAndTagSizes() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let nonce = [UInt8](repeating: 1, count: 12)
        let sealed = try AES.GCM.seal(Array("hello".utf8), key: key, nonce: nonce, authenticating: [9])
        #expect(sealed.tag.count == 16)
        #expect(try AES.GCM.open(sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, authenticating: [9]) == Array("hello".utf8))
        #expect(throws: CryptoError(.authenticationFailure, "")) {
            try AES.GCM.open(sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, authenticating: [8])
        }
        #expect(throws: CryptoError(.authenticationFailure, "")) {
            try AES.GCM.open(sealed.ciphertext, tag: Array(sealed.tag.prefix(12)), key: key, nonce: nonce, authenticating: [9])
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try AES.GCM.seal([], key: [1, 2, 3], nonce: nonce) }
        #expect(throws: CryptoError(.invalidInput, "")) { try AES.GCM.seal([], key: key, nonce: []) }
    }

    /// Empty IKM, salt and info are legal HKDF inputs (an empty salt means 32 zero bytes).
    @Test func hkdfAcceptsEmptyInputs() throws {
        let okm = try HKDFSHA256.deriveKey(inputKeyMaterial: [], salt: [], info: [], outputByteCount: 32)
        #expect(okm == [UInt8](hex: "eb70f01dede9afafa449eee1b1286504e1f62388b3f7dd4f956697b0e828fe18"))
        #expect(okm == (try HKDFSHA256.deriveKey(inputKeyMaterial: [], salt: [UInt8](repeating: 0, count: 32), info: [], outputByteCount: 32)))
    }

    @Test func hkdfRejectsZeroLength() {
        #expect(throws: CryptoError(.invalidInput, "")) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [], info: [], outputByteCount: 0)
        }
    }

    @Test func secureRandomReturnsDistinctBytesOfTheRequestedLength() {
        #expect(SecureRandom.bytes(0).isEmpty)
        let a = SecureRandom.bytes(32)
        let b = SecureRandom.bytes(32)
        #expect(a.count == 32)
        #expect(a != b)
    }
}
