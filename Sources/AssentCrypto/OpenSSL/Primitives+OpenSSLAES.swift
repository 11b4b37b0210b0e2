#if canImport(COpenSSL)
internal import COpenSSL

/// AES in ECB (one block), CBC and GCM through OpenSSL 3's EVP cipher API (Linux). Key, IV and nonce sizes arrive
/// checked by ``AES``.
extension Primitives {
    /// OpenSSL 3.0 accepts GCM nonces of 1 to 128 bytes.
    static let gcmNonceByteCountRange = 1...128

    static func aesECBEncrypt(_ block: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let cipher = cipher(for: key, FetchedAlgorithm.aes128ECB, FetchedAlgorithm.aes192ECB, FetchedAlgorithm.aes256ECB)
        let context = try CipherContext()
        let ok = key.withUnsafeBufferPointer { key in
            EVP_EncryptInit_ex2(context.pointer, cipher.pointer, key.baseAddress, nil, nil)
        }
        guard ok == 1 else { throw CryptoError.openSSL("EVP_EncryptInit_ex2(AES-ECB)") }
        guard EVP_CIPHER_CTX_set_padding(context.pointer, 0) == 1 else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_set_padding")
        }
        return try context.update(block, reserving: AES.blockByteCount, finalize: true, operation: "AES-ECB encrypt")
    }

    static func aesCBC(_ input: [UInt8], key: [UInt8], iv: [UInt8], padding: Bool, encrypt: Bool) throws -> [UInt8] {
        let cipher = cipher(for: key, FetchedAlgorithm.aes128CBC, FetchedAlgorithm.aes192CBC, FetchedAlgorithm.aes256CBC)
        let context = try CipherContext()
        let ok = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                EVP_CipherInit_ex2(context.pointer, cipher.pointer, key.baseAddress, iv.baseAddress, encrypt ? 1 : 0, nil)
            }
        }
        guard ok == 1 else { throw CryptoError.openSSL("EVP_CipherInit_ex2(AES-CBC)") }
        guard EVP_CIPHER_CTX_set_padding(context.pointer, padding ? 1 : 0) == 1 else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_set_padding")
        }
        // Bad padding shows in the final step.
        return try context.update(input, reserving: input.count + AES.blockByteCount, finalize: true,
                                  operation: encrypt ? "AES-CBC encrypt" : "AES-CBC decrypt",
                                  finalFailure: encrypt ? .internalFailure : .authenticationFailure)
    }

    static func aesGCMSeal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        let context = try gcmContext(encrypt: true, key: key, nonce: nonce, aad: aad)
        let ciphertext = try context.update(plaintext, reserving: plaintext.count + AES.blockByteCount,
                                            finalize: true, operation: "AES-GCM seal")
        var tag = [UInt8](repeating: 0, count: AES.GCM.tagByteCount)
        let ok = tag.withUnsafeMutableBytes { tag in
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(AES.GCM.tagByteCount), tag.baseAddress)
        }
        guard ok == 1 else { throw CryptoError.openSSL("AES-GCM get tag") }
        return (ciphertext, tag)
    }

    static func aesGCMOpen(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        let context = try gcmContext(encrypt: false, key: key, nonce: nonce, aad: aad)
        var tagCopy = tag
        let ok = tagCopy.withUnsafeMutableBytes { tag in
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(AES.GCM.tagByteCount), tag.baseAddress)
        }
        guard ok == 1 else { throw CryptoError.openSSL("AES-GCM set tag") }
        return try context.update(ciphertext, reserving: ciphertext.count + AES.blockByteCount, finalize: true,
                                  operation: "AES-GCM open", finalFailure: .authenticationFailure)
    }

    /// A context keyed for GCM with the given nonce, already fed the AAD.
    private static func gcmContext(encrypt: Bool, key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws -> CipherContext {
        let cipher = cipher(for: key, FetchedAlgorithm.aes128GCM, FetchedAlgorithm.aes192GCM, FetchedAlgorithm.aes256GCM)
        let context = try CipherContext()
        let doEncrypt: Int32 = encrypt ? 1 : 0
        guard EVP_CipherInit_ex2(context.pointer, cipher.pointer, nil, nil, doEncrypt, nil) == 1 else {
            throw CryptoError.openSSL("EVP_CipherInit_ex2(AES-GCM)")
        }
        guard EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1 else {
            throw CryptoError.openSSL("AES-GCM set nonce length", code: .invalidInput)
        }
        let keyed = key.withUnsafeBufferPointer { key in
            nonce.withUnsafeBufferPointer { nonce in
                EVP_CipherInit_ex2(context.pointer, nil, key.baseAddress, nonce.baseAddress, doEncrypt, nil)
            }
        }
        guard keyed == 1 else { throw CryptoError.openSSL("AES-GCM set key and nonce") }
        if !aad.isEmpty {
            var written: Int32 = 0
            let ok = aad.withUnsafeBufferPointer { aad in
                EVP_CipherUpdate(context.pointer, nil, &written, aad.baseAddress, Int32(aad.count))
            }
            guard ok == 1 else { throw CryptoError.openSSL("AES-GCM AAD") }
        }
        return context
    }

    /// The cipher for the key's size (16, 24 or 32 bytes, checked by ``AES``).
    private static func cipher(
        for key: [UInt8], _ aes128: FetchedAlgorithm, _ aes192: FetchedAlgorithm, _ aes256: FetchedAlgorithm
    ) -> FetchedAlgorithm {
        switch key.count {
        case 16: aes128
        case 24: aes192
        default: aes256
        }
    }
}

#endif
