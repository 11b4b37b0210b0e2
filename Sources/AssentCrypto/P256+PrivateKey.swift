internal import COpenSSL
internal import CCryptoShims

extension P256 {
    /// A P-256 private key, for ECDSA-SHA256 signing and ECDH.
    public final class PrivateKey: Sendable {
        let key: EVPKey

        /// The matching public key.
        public let publicKey: P256.PublicKey

        /// Generates a new random key pair.
        ///
        /// Traps if OpenSSL cannot generate a key (its RNG or provider is broken).
        public init() {
            guard let generated = assent_p256_generate() else {
                fatalError("\(CryptoError.openSSL("P-256 key generation"))")
            }
            key = EVPKey(taking: generated)
            do {
                publicKey = try PrivateKey.publicKey(of: key)
            } catch {
                fatalError("P-256 key generation: \(error)")
            }
        }

        /// Imports a private scalar: 32 bytes big-endian (or 33 with a leading 0x00), in `1 ..< n`.
        ///
        /// - Throws: `CryptoError.invalidKey`.
        public init(rawRepresentation scalar: [UInt8]) throws {
            var scalar = scalar
            if scalar.count == P256.coordinateByteCount + 1, scalar[0] == 0 {
                scalar.removeFirst()
            }
            guard scalar.count == P256.coordinateByteCount else {
                throw CryptoError(.invalidKey, "P-256 private key must be 32 bytes, got \(scalar.count)")
            }
            guard scalar.contains(where: { $0 != 0 }), scalar.lexicographicallyPrecedes(P256.order) else {
                throw CryptoError(.invalidKey, "P-256 private scalar out of range 1..<n")
            }
            guard let imported = scalar.withUnsafeBufferPointer({ assent_p256_key_pair_from_scalar($0.baseAddress, $0.count) }) else {
                throw CryptoError.openSSL("P-256 private key import", code: .invalidKey)
            }
            key = EVPKey(taking: imported)
            publicKey = try PrivateKey.publicKey(of: key)
        }

        /// The 32-byte big-endian private scalar. Treat it as a secret.
        public var rawRepresentation: [UInt8] {
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

        /// Signs SHA-256(`message`) with ECDSA and returns the DER signature (at most 72 bytes).
        ///
        /// - Throws: `CryptoError.internalFailure` if OpenSSL fails.
        public func signature(for message: [UInt8]) throws -> [UInt8] {
            let digest = SHA256.hash(message)
            let context = try key.makeContext()
            guard EVP_PKEY_sign_init(context.pointer) == 1 else { throw CryptoError.openSSL("EVP_PKEY_sign_init") }
            return try context.sign(digest: digest)
        }

        /// ECDH with `publicKey`: returns the 32-byte X coordinate of the shared point (not yet a key;
        /// run it through a KDF such as ``HKDFSHA256``).
        ///
        /// - Throws: `CryptoError.invalidKey` if OpenSSL rejects the peer key, `.internalFailure` otherwise.
        public func sharedSecret(with publicKey: P256.PublicKey) throws -> [UInt8] {
            let context = try key.makeContext()
            guard EVP_PKEY_derive_init(context.pointer) == 1 else { throw CryptoError.openSSL("EVP_PKEY_derive_init") }
            // Validates the peer key again (on the curve, right group) before using it.
            guard EVP_PKEY_derive_set_peer(context.pointer, publicKey.key.pointer) == 1 else {
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

        /// Reads the public point out of a key pair and imports it as a ``PublicKey``.
        private static func publicKey(of key: EVPKey) throws -> PublicKey {
            var point = [UInt8](repeating: 0, count: 65)
            var length = 0
            let ok = point.withUnsafeMutableBufferPointer {
                EVP_PKEY_get_octet_string_param(key.pointer, OSSL_PKEY_PARAM_PUB_KEY, $0.baseAddress, $0.count, &length)
            }
            guard ok == 1, length == point.count else { throw CryptoError.openSSL("P-256 public point export") }
            return try PublicKey(x962: point)
        }
    }
}
