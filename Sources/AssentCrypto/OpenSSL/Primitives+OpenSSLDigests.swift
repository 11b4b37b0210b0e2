#if canImport(COpenSSL)
internal import COpenSSL
internal import CCryptoShims

/// Digests, MACs, KDFs, randomness and comparison through OpenSSL 3 (Linux). Arguments arrive checked by the public
/// types (see ``Primitives``).
extension Primitives {
    static func sha256(_ data: [UInt8]) -> [UInt8] {
        digest(data, FetchedAlgorithm.sha256.pointer, byteCount: SHA256.byteCount, name: "SHA256")
    }

    static func sha1(_ data: [UInt8]) -> [UInt8] {
        digest(data, FetchedAlgorithm.sha1.pointer, byteCount: SHA1.byteCount, name: "SHA1")
    }

    /// `EVP_Digest` with a fetched digest, which fails only on allocation failure (so it traps).
    private static func digest(_ data: [UInt8], _ md: OpaquePointer, byteCount: Int, name: String) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            var length: UInt32 = 0
            let ok = data.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, md, nil)
            }
            guard ok == 1, length == byteCount else {
                fatalError("\(CryptoError.openSSL("EVP_Digest(\(name))"))")
            }
            initialized = byteCount
        }
    }

    static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: HMACSHA256.byteCount) { out, initialized in
            var length = 0
            let result = key.withNonNullBytes { keyPointer, keyCount in
                message.withNonNullBytes { messagePointer, messageCount in
                    EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, keyPointer, keyCount,
                              messagePointer, messageCount, out.baseAddress, out.count, &length)
                }
            }
            // EVP_Q_mac fails only on allocation failure or a broken provider.
            guard result != nil, length == HMACSHA256.byteCount else {
                fatalError("\(CryptoError.openSSL("EVP_Q_mac(HMAC-SHA256)"))")
            }
            initialized = HMACSHA256.byteCount
        }
    }

    static func hkdfSHA256(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int) throws(CryptoError) -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: outputByteCount) { out, initialized throws(CryptoError) in
            let ok = inputKeyMaterial.withUnsafeBufferPointer { ikm in
                salt.withUnsafeBufferPointer { salt in
                    info.withUnsafeBufferPointer { info in
                        assent_hkdf_sha256(out.baseAddress, outputByteCount,
                                           ikm.baseAddress, ikm.count,
                                           salt.baseAddress, salt.count,
                                           info.baseAddress, info.count)
                    }
                }
            }
            guard ok == 1 else { throw CryptoError.openSSL("HKDF-SHA256 derive") }
            initialized = outputByteCount
        }
    }

    static func pbkdf2(
        _ prf: PBKDF2.PRF, name: String, password: [UInt8], salt: [UInt8], iterations: Int, outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        let digest = prf == .hmacSHA1 ? FetchedAlgorithm.sha1 : FetchedAlgorithm.sha256
        return try [UInt8](unsafeUninitializedCapacity: outputByteCount) { out, initialized throws(CryptoError) in
            let ok = password.withNonNullBytes { passwordPointer, passwordCount in
                salt.withNonNullBytes { saltPointer, saltCount in
                    passwordPointer.withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) { passwordChars in
                        PKCS5_PBKDF2_HMAC(passwordChars, Int32(passwordCount), saltPointer, Int32(saltCount),
                                          Int32(iterations), digest.pointer, Int32(outputByteCount), out.baseAddress)
                    }
                }
            }
            guard ok == 1 else { throw CryptoError.openSSL("\(name) derive") }
            initialized = outputByteCount
        }
    }

    /// `RAND_bytes`; traps if the DRBG fails.
    static func randomBytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard RAND_bytes(buffer.baseAddress, Int32(count)) == 1 else {
                fatalError("\(CryptoError.openSSL("RAND_bytes"))")
            }
            initialized = count
        }
    }

    /// `CRYPTO_memcmp` over two non-empty arrays of one length.
    static func equalBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

#endif
