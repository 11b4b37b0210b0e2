extension P256 {
    /// A P-256 private key, for ECDSA-SHA256 signing and ECDH.
    public final class PrivateKey: Sendable {
        /// The platform's key object (an `EVP_PKEY` on Linux, a CryptoKit key on Apple platforms).
        let key: Primitives.P256KeyPair

        /// The matching public key.
        public let publicKey: P256.PublicKey

        /// Generates a new random key pair.
        ///
        /// Traps if the platform cannot generate a key (its RNG or provider is broken).
        public init() {
            key = Primitives.p256Generate()
            do {
                publicKey = try PublicKey(x962: Primitives.p256PublicPoint(key))
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
            key = try Primitives.p256KeyPair(scalar: scalar)
            publicKey = try PublicKey(x962: Primitives.p256PublicPoint(key))
        }

        /// The 32-byte big-endian private scalar. Treat it as a secret.
        public var rawRepresentation: [UInt8] {
            Primitives.p256Scalar(key)
        }

        /// Signs SHA-256(`message`) with ECDSA and returns the DER signature (at most 72 bytes).
        ///
        /// - Throws: `CryptoError.internalFailure` if the platform fails.
        public func signature(for message: [UInt8]) throws -> [UInt8] {
            try Primitives.p256Sign(key, message: message)
        }

        /// ECDH with `publicKey`: returns the 32-byte X coordinate of the shared point (not yet a key;
        /// run it through a KDF such as ``HKDFSHA256``).
        ///
        /// - Throws: `CryptoError.invalidKey` if the platform rejects the peer key, `.internalFailure` otherwise.
        public func sharedSecret(with publicKey: P256.PublicKey) throws -> [UInt8] {
            let secret = try Primitives.p256SharedSecret(key, publicKey.key)
            guard secret.count == P256.coordinateByteCount else {
                throw CryptoError(.internalFailure, "P-256 ECDH answered \(secret.count) bytes")
            }
            return secret
        }
    }
}
