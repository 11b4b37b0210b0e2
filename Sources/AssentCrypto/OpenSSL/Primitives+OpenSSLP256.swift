#if canImport(COpenSSL)
internal import COpenSSL
internal import CCryptoShims

/// P-256 keys, ECDSA and ECDH through OpenSSL 3 (Linux). Scalars and point encodings arrive checked by ``P256``.
extension Primitives {
    /// A key pair: an `EVP_PKEY` holding the scalar and the point.
    typealias P256KeyPair = EVPKey
    /// A public key: an `EVP_PKEY` holding a validated point.
    typealias P256Point = EVPKey

    /// Traps if OpenSSL cannot generate a key (its RNG or provider is broken).
    static func p256Generate() -> EVPKey {
        guard let generated = assent_p256_generate() else {
            fatalError("\(CryptoError.openSSL("P-256 key generation"))")
        }
        return EVPKey(taking: generated)
    }

    static func p256KeyPair(scalar: [UInt8]) throws(CryptoError) -> EVPKey {
        guard let imported = scalar.withUnsafeBufferPointer({ assent_p256_key_pair_from_scalar($0.baseAddress, $0.count) }) else {
            throw CryptoError.openSSL("P-256 private key import", code: .invalidKey)
        }
        return EVPKey(taking: imported)
    }

    static func p256Scalar(_ key: EVPKey) -> [UInt8] {
        var bignum: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, OSSL_PKEY_PARAM_PRIV_KEY, &bignum) == 1, let bignum else {
            fatalError("\(CryptoError.openSSL("P-256 private key export"))")
        }
        let owned = SecretBigNumber(taking: bignum)
        return [UInt8](unsafeUninitializedCapacity: P256.coordinateByteCount) { out, initialized in
            guard BN_bn2binpad(owned.pointer, out.baseAddress, Int32(out.count)) == Int32(out.count) else {
                fatalError("\(CryptoError.openSSL("BN_bn2binpad"))")
            }
            initialized = out.count
        }
    }

    /// The 65-byte uncompressed point of a key (pair or public).
    static func p256PublicPoint(_ key: EVPKey) throws(CryptoError) -> [UInt8] {
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        let ok = point.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_octet_string_param(key.pointer, OSSL_PKEY_PARAM_PUB_KEY, $0.baseAddress, $0.count, &length)
        }
        guard ok == 1, length == point.count else { throw CryptoError.openSSL("P-256 public point export") }
        return point
    }

    static func p256Point(x962: [UInt8]) throws(CryptoError) -> (EVPKey, [UInt8]) {
        guard let imported = x962.withUnsafeBufferPointer({ assent_p256_public_key_from_point($0.baseAddress, $0.count) }) else {
            throw CryptoError.openSSL("P-256 point import", code: .invalidKey)
        }
        let key = EVPKey(taking: imported)
        let check = try key.makeContext()
        guard EVP_PKEY_public_check_quick(check.pointer) == 1 else {
            throw CryptoError.openSSL("P-256 public key check", code: .invalidKey)
        }
        return (key, try p256PublicPoint(key))
    }

    static func p256Sign(_ key: EVPKey, message: [UInt8]) throws -> [UInt8] {
        let digest = SHA256.hash(message)
        let context = try key.makeContext()
        guard EVP_PKEY_sign_init(context.pointer) == 1 else { throw CryptoError.openSSL("EVP_PKEY_sign_init") }
        return try context.sign(digest: digest)
    }

    static func p256Verify(_ key: EVPKey, derSignature: [UInt8], message: [UInt8]) -> Bool {
        let digest = SHA256.hash(message)
        guard let context = try? key.makeContext() else {
            CryptoError.clearOpenSSLErrors()
            return false
        }
        guard EVP_PKEY_verify_init(context.pointer) == 1 else {
            CryptoError.clearOpenSSLErrors()
            return false
        }
        // OpenSSL's ECDSA verify re-encodes the parsed signature and requires it to match the input
        // byte for byte, which is what makes this strict DER.
        let result = derSignature.withUnsafeBufferPointer { signature in
            digest.withUnsafeBufferPointer { digest in
                EVP_PKEY_verify(context.pointer, signature.baseAddress, signature.count, digest.baseAddress, digest.count)
            }
        }
        if result != 1 {
            CryptoError.clearOpenSSLErrors()
            return false
        }
        return true
    }

    static func p256SharedSecret(_ key: EVPKey, _ peer: EVPKey) throws -> [UInt8] {
        let context = try key.makeContext()
        guard EVP_PKEY_derive_init(context.pointer) == 1 else { throw CryptoError.openSSL("EVP_PKEY_derive_init") }
        // Validates the peer key again (on the curve, right group) before using it.
        guard EVP_PKEY_derive_set_peer(context.pointer, peer.pointer) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_derive_set_peer", code: .invalidKey)
        }
        var length = 0
        guard EVP_PKEY_derive(context.pointer, nil, &length) == 1, length == P256.coordinateByteCount else {
            throw CryptoError.openSSL("EVP_PKEY_derive (size)")
        }
        var secret = [UInt8](repeating: 0, count: length)
        let ok = secret.withUnsafeMutableBufferPointer { EVP_PKEY_derive(context.pointer, $0.baseAddress, &length) }
        guard ok == 1, length == P256.coordinateByteCount else { throw CryptoError.openSSL("EVP_PKEY_derive") }
        return secret
    }

    /// The private scalar of a PKCS#8 EC key on P-256.
    static func pkcs8P256Scalar(_ der: [UInt8]) throws -> [UInt8] {
        let key = try PKCS8.key(der)
        guard PKCS8.isA(key, "EC") else { throw CryptoError(.invalidKey, "PKCS#8 key is not an EC key") }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        let ok = name.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_utf8_string_param(key.pointer, OSSL_PKEY_PARAM_GROUP_NAME, $0.baseAddress, $0.count, &length)
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard ok == 1, group == "prime256v1" || group == "P-256" else {
            CryptoError.clearOpenSSLErrors()
            throw CryptoError(.invalidKey, "PKCS#8 EC key is not on P-256")
        }
        var bignum: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, OSSL_PKEY_PARAM_PRIV_KEY, &bignum) == 1, let bignum else {
            throw CryptoError.openSSL("PKCS#8 EC private scalar", code: .invalidKey)
        }
        let owned = SecretBigNumber(taking: bignum)
        var scalar = [UInt8](repeating: 0, count: P256.coordinateByteCount)
        let written = scalar.withUnsafeMutableBufferPointer {
            BN_bn2binpad(owned.pointer, $0.baseAddress, Int32($0.count))
        }
        guard written == Int32(P256.coordinateByteCount) else {
            throw CryptoError.openSSL("BN_bn2binpad", code: .invalidKey)
        }
        return scalar
    }
}

#endif
