import AssentCrypto
import Testing

@Suite struct WycheproofAESGCMTests {
    struct Group: Decodable {
        let keySize: Int
        let ivSize: Int
        let tagSize: Int
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let key: String
        let iv: String
        let aad: String
        let msg: String
        let ct: String
        let tag: String
        let result: WycheproofResult
    }

    /// Rules, decided on purpose:
    /// - Tags: the API produces and accepts only 16-byte tags. A vector with another tag size would be
    ///   counted as unsupported and must be rejected by `open`; this file has none (asserted).
    /// - Nonces: the platform takes `AES.GCM.nonceByteCountRange` (OpenSSL: 1...128 bytes; CryptoKit: 12...128).
    ///   A vector whose nonce is outside it (the 257-byte and zero-length ones everywhere, the short ones on Apple
    ///   platforms) must make `seal` and `open` throw `invalidInput` (counted and asserted) rather than silently pass.
    ///   Which vectors that is follows from the file's nonce sizes (asserted), not from one platform's count.
    /// - Valid: `seal` reproduces ciphertext and tag, `open` returns the message.
    /// - Invalid: `open` throws (modified tags: `authenticationFailure`).
    /// No `acceptable` cases in this file.
    @Test func sealsAndOpensAsWycheproofSays() throws {
        let file = try TestVectors.wycheproof("aes_gcm_test.json", groups: Group.self)
        var counter = CaseCounter()
        var unsupportedNonce = 0
        var vectorsPerNonceSize: [Int: Int] = [:]
        var unsupportedTag = 0
        var checked = 0
        for group in file.testGroups {
            for test in group.tests {
                counter.count(test.result)
                let key = [UInt8](hex: test.key)
                let nonce = [UInt8](hex: test.iv)
                let aad = [UInt8](hex: test.aad)
                let message = [UInt8](hex: test.msg)
                let ciphertext = [UInt8](hex: test.ct)
                let tag = [UInt8](hex: test.tag)
                #expect(key.count * 8 == group.keySize)
                #expect(nonce.count * 8 == group.ivSize)

                if group.tagSize != 128 {
                    unsupportedTag += 1
                    #expect(throws: CryptoError.self) {
                        try AES.GCM.open(ciphertext, tag: tag, key: key, nonce: nonce, authenticating: aad)
                    }
                    continue
                }
                vectorsPerNonceSize[nonce.count, default: 0] += 1
                if !AES.GCM.nonceByteCountRange.contains(nonce.count) {
                    unsupportedNonce += 1
                    #expect(throws: CryptoError(.invalidInput, ""), "tcId \(test.tcId)") {
                        try AES.GCM.seal(message, key: key, nonce: nonce, authenticating: aad)
                    }
                    #expect(throws: CryptoError(.invalidInput, ""), "tcId \(test.tcId)") {
                        try AES.GCM.open(ciphertext, tag: tag, key: key, nonce: nonce, authenticating: aad)
                    }
                    continue
                }
                checked += 1
                switch test.result {
                case .valid:
                    let sealed = try AES.GCM.seal(message, key: key, nonce: nonce, authenticating: aad)
                    #expect(sealed.ciphertext == ciphertext, "tcId \(test.tcId)")
                    #expect(sealed.tag == tag, "tcId \(test.tcId)")
                    let opened = try AES.GCM.open(ciphertext, tag: tag, key: key, nonce: nonce, authenticating: aad)
                    #expect(opened == message, "tcId \(test.tcId)")
                case .invalid, .acceptable:
                    #expect(throws: CryptoError(.authenticationFailure, ""), "tcId \(test.tcId) (\(test.comment))") {
                        try AES.GCM.open(ciphertext, tag: tag, key: key, nonce: nonce, authenticating: aad)
                    }
                }
            }
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 229)
        #expect(counter.invalid == 87)
        #expect(counter.acceptable == 0)
        #expect(unsupportedTag == 0)
        // The file's vectors per nonce size in bytes; the refused ones are those outside the platform's range.
        let fileNonceSizes = [0: 6, 1: 6, 2: 6, 4: 6, 6: 6, 8: 7, 10: 6, 12: 197, 15: 3, 16: 58, 20: 3, 32: 3, 64: 3, 128: 3, 257: 3]
        #expect(vectorsPerNonceSize == fileNonceSizes)
        let outside = fileNonceSizes.filter { !AES.GCM.nonceByteCountRange.contains($0.key) }.values.reduce(0, +)
        #expect(unsupportedNonce == outside)
        #expect(checked == file.numberOfTests - outside)
        // What Assent itself uses (PowerAuth, the file key store: 12 and 16 bytes) is in range on every platform.
        #expect(AES.GCM.nonceByteCountRange.contains(12) && AES.GCM.nonceByteCountRange.contains(16))
    }
}

@Suite struct WycheproofAESCBCTests {
    struct Group: Decodable {
        let keySize: Int
        let ivSize: Int
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let key: String
        let iv: String
        let msg: String
        let ct: String
        let result: WycheproofResult
    }

    /// Valid: PKCS#7 encryption reproduces the ciphertext and decryption the message. Invalid (bad or
    /// missing padding, including an empty ciphertext): decryption throws `authenticationFailure`.
    /// No `acceptable` cases in this file.
    @Test func encryptsAndDecryptsAsWycheproofSays() throws {
        let file = try TestVectors.wycheproof("aes_cbc_pkcs5_test.json", groups: Group.self)
        var counter = CaseCounter()
        for group in file.testGroups {
            #expect(group.ivSize == 128)
            for test in group.tests {
                counter.count(test.result)
                let key = [UInt8](hex: test.key)
                let iv = [UInt8](hex: test.iv)
                let ciphertext = [UInt8](hex: test.ct)
                #expect(key.count * 8 == group.keySize)
                switch test.result {
                case .valid:
                    let message = [UInt8](hex: test.msg)
                    #expect(try AES.CBC.encrypt(message, key: key, iv: iv) == ciphertext, "tcId \(test.tcId)")
                    #expect(try AES.CBC.decrypt(ciphertext, key: key, iv: iv) == message, "tcId \(test.tcId)")
                case .invalid, .acceptable:
                    #expect(throws: CryptoError(.authenticationFailure, ""), "tcId \(test.tcId) (\(test.comment))") {
                        try AES.CBC.decrypt(ciphertext, key: key, iv: iv)
                    }
                }
            }
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 72)
        #expect(counter.invalid == 144)
        #expect(counter.acceptable == 0)
    }
}
