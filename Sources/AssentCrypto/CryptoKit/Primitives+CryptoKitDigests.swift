#if canImport(CryptoKit)
import CommonCrypto
import CryptoKit
import Darwin
import Security

// Digests, MACs, KDFs, randomness and comparison on Apple platforms. Arguments arrive checked by the public types
// (see `Primitives`); each function is one platform call. Apple documentation of each API called:
// - CryptoKit SHA256.hash(data:): https://developer.apple.com/documentation/cryptokit/sha256/hash(data:)
// - Insecure.SHA1.hash(data:): https://developer.apple.com/documentation/cryptokit/insecure/sha1
// - HMAC.authenticationCode(for:using:): https://developer.apple.com/documentation/cryptokit/hmac/authenticationcode(for:using:)
// - HKDF.deriveKey(inputKeyMaterial:salt:info:outputByteCount:):
//   https://developer.apple.com/documentation/cryptokit/hkdf/derivekey(inputkeymaterial:salt:info:outputbytecount:)
// - SymmetricKey(data:), withUnsafeBytes: https://developer.apple.com/documentation/cryptokit/symmetrickey
// - CCKeyDerivationPBKDF (CommonCrypto, CommonKeyDerivation.h): man page CCKeyDerivationPBKDF(3cc)
// - SecRandomCopyBytes(_:_:_:): https://developer.apple.com/documentation/security/secrandomcopybytes(_:_:_:)
// - timingsafe_bcmp (libc): man page timingsafe_bcmp(3)
extension Primitives {
    static func sha256(_ data: [UInt8]) -> [UInt8] {
        Array(CryptoKit.SHA256.hash(data: data))
    }

    static func sha1(_ data: [UInt8]) -> [UInt8] {
        Array(Insecure.SHA1.hash(data: data))
    }

    static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Array(HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    static func hkdfSHA256(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int) throws(CryptoError) -> [UInt8] {
        let derived = HKDF<CryptoKit.SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: salt, info: info, outputByteCount: outputByteCount)
        return derived.withUnsafeBytes { Array($0) }
    }

    static func pbkdf2(
        _ prf: PBKDF2.PRF, name: String, password: [UInt8], salt: [UInt8], iterations: Int, outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        let algorithm = CCPseudoRandomAlgorithm(prf == .hmacSHA1 ? kCCPRFHmacAlgSHA1 : kCCPRFHmacAlgSHA256)
        var output = [UInt8](repeating: 0, count: outputByteCount)
        // Never NULL pointers, even for an empty password or salt.
        let status = password.withNonNullBytes { passwordPointer, passwordCount in
            salt.withNonNullBytes { saltPointer, saltCount in
                passwordPointer.withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) { passwordChars in
                    output.withUnsafeMutableBufferPointer { output in
                        CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), passwordChars, passwordCount, saltPointer, saltCount,
                                             algorithm, UInt32(iterations), output.baseAddress, output.count)
                    }
                }
            }
        }
        guard status == Int32(kCCSuccess) else { throw CryptoError(.internalFailure, "\(name) derive failed: \(status)") }
        return output
    }

    /// Traps if the system generator fails.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return errSecParam }
            return SecRandomCopyBytes(kSecRandomDefault, buffer.count, base)
        }
        guard status == errSecSuccess else { fatalError("SecRandomCopyBytes failed: \(status)") }
        return bytes
    }

    /// `timingsafe_bcmp` over two non-empty arrays of one length.
    static func equalBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                timingsafe_bcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

#endif
