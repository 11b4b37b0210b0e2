#if canImport(CryptoKit)
import CommonCrypto
import CryptoKit
import Foundation

// AES on Apple platforms: one block and CBC through CommonCrypto's CCCrypt, GCM through CryptoKit. Key, IV and nonce
// sizes arrive checked by `AES`. Apple documentation of each API called:
// - CCCrypt (CommonCrypto, CommonCryptor.h; kCCOptionECBMode, kCCOptionPKCS7Padding): man page CCCryptor(3cc)
// - AES.GCM.seal(_:using:nonce:authenticating:):
//   https://developer.apple.com/documentation/cryptokit/aes/gcm/seal(_:using:nonce:authenticating:)
// - AES.GCM.Nonce(data:): https://developer.apple.com/documentation/cryptokit/aes/gcm/nonce/init(data:)
// - AES.GCM.SealedBox(nonce:ciphertext:tag:):
//   https://developer.apple.com/documentation/cryptokit/aes/gcm/sealedbox/init(nonce:ciphertext:tag:)
// - AES.GCM.open(_:using:authenticating:): https://developer.apple.com/documentation/cryptokit/aes/gcm/open(_:using:authenticating:)
extension Primitives {
    /// CryptoKit refuses GCM nonces shorter than 12 bytes; the upper bound is OpenSSL's, so both platforms agree on it.
    static let gcmNonceByteCountRange = 12...128

    static func aesECBEncrypt(_ block: [UInt8], key: [UInt8]) throws -> [UInt8] {
        // ECB mode ignores the IV.
        try commonCrypt(block, key: key, iv: [UInt8](repeating: 0, count: AES.blockByteCount),
                        options: CCOptions(kCCOptionECBMode), encrypt: true, operation: "AES-ECB encrypt")
    }

    static func aesCBC(_ input: [UInt8], key: [UInt8], iv: [UInt8], padding: Bool, encrypt: Bool) throws -> [UInt8] {
        let options = CCOptions(padding ? kCCOptionPKCS7Padding : 0)
        return try commonCrypt(input, key: key, iv: iv, options: options, encrypt: encrypt,
                               operation: encrypt ? "AES-CBC encrypt" : "AES-CBC decrypt")
    }

    /// One CCCrypt call. A decryption that fails after the checks in `AES` has bad padding.
    private static func commonCrypt(
        _ input: [UInt8], key: [UInt8], iv: [UInt8], options: CCOptions, encrypt: Bool, operation: String
    ) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count + AES.blockByteCount)
        var written = 0
        // Never NULL pointers, even for an empty input (CBC with padding encrypts an empty plaintext to one block).
        let status = key.withNonNullBytes { key, keyCount in
            iv.withNonNullBytes { iv, _ in
                input.withNonNullBytes { input, inputCount in
                    output.withUnsafeMutableBytes { out in
                        CCCrypt(CCOperation(encrypt ? kCCEncrypt : kCCDecrypt), CCAlgorithm(kCCAlgorithmAES), options,
                                key, keyCount, iv, input, inputCount, out.baseAddress, out.count, &written)
                    }
                }
            }
        }
        guard status == CCCryptorStatus(kCCSuccess) else {
            throw CryptoError(encrypt ? .internalFailure : .authenticationFailure, "\(operation) failed: \(status)")
        }
        output.removeLast(output.count - written)
        return output
    }

    static func aesGCMSeal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        do {
            let box = try CryptoKit.AES.GCM.seal(plaintext, using: SymmetricKey(data: key),
                                                 nonce: CryptoKit.AES.GCM.Nonce(data: nonce), authenticating: aad)
            return (Array(box.ciphertext), Array(box.tag))
        } catch {
            throw CryptoError(.internalFailure, "AES-GCM seal failed: \(error)")
        }
    }

    static func aesGCMOpen(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        do {
            let box = try CryptoKit.AES.GCM.SealedBox(nonce: CryptoKit.AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
            return Array(try CryptoKit.AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad))
        } catch {
            throw CryptoError(.authenticationFailure, "AES-GCM open failed: \(error)")
        }
    }
}

#endif
