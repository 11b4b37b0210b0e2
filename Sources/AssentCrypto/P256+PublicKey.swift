extension P256 {
    /// A P-256 public key, validated on import (on the curve, not the point at infinity) and kept
    /// parsed so that verifying many signatures with one key costs no re-parsing.
    ///
    /// Equal keys are equal points, whatever encoding they were imported from.
    public final class PublicKey: Sendable, Hashable {
        /// The platform's key object (an `EVP_PKEY` on Linux, a CryptoKit key on Apple platforms).
        let key: Primitives.P256Point
        private let uncompressedPoint: [UInt8]

        /// Imports a DER-encoded X.509 SubjectPublicKeyInfo (RFC 5480) for a named-curve P-256 key,
        /// with an uncompressed or compressed point.
        ///
        /// Only the one DER encoding is accepted: BER variants, explicit curve parameters, other curves,
        /// and trailing bytes are all rejected.
        ///
        /// - Throws: `CryptoError.invalidKey`.
        public convenience init(spkiDER: [UInt8]) throws {
            let prefix: [UInt8]
            switch spkiDER.count {
            case P256.spkiUncompressedPrefix.count + 65: prefix = P256.spkiUncompressedPrefix
            case P256.spkiCompressedPrefix.count + 33: prefix = P256.spkiCompressedPrefix
            default: throw CryptoError(.invalidKey, "not a DER P-256 SubjectPublicKeyInfo (\(spkiDER.count) bytes)")
            }
            guard spkiDER.starts(with: prefix) else {
                throw CryptoError(.invalidKey, "not a DER named-curve P-256 SubjectPublicKeyInfo")
            }
            try self.init(x962: Array(spkiDER[prefix.count...]))
        }

        /// Imports a SEC1 / X9.62 point: 65 bytes uncompressed (`04 || X || Y`) or 33 bytes
        /// compressed (`02`/`03 || X`). Hybrid encodings and points not on the curve are rejected.
        ///
        /// - Throws: `CryptoError.invalidKey`.
        public init(x962: [UInt8]) throws {
            switch (x962.count, x962.first) {
            case (65, 0x04), (33, 0x02), (33, 0x03):
                break
            default:
                throw CryptoError(.invalidKey, "not a 65-byte uncompressed or 33-byte compressed P-256 point")
            }
            // The backend refuses points not on the curve (and the point at infinity; P-256 has cofactor 1, so
            // that is the whole check) and answers the uncompressed encoding.
            let (key, point) = try Primitives.p256Point(x962: x962)
            guard point.count == 65, point[0] == 0x04 else {
                throw CryptoError(.internalFailure, "P-256 point export answered \(point.count) bytes")
            }
            self.key = key
            self.uncompressedPoint = point
        }

        /// The canonical 91-byte DER SubjectPublicKeyInfo (named curve, uncompressed point).
        public var spkiDER: [UInt8] {
            P256.spkiUncompressedPrefix + uncompressedPoint
        }

        /// The 65-byte uncompressed SEC1 point `04 || X || Y`.
        public var x962Uncompressed: [UInt8] {
            uncompressedPoint
        }

        /// The 33-byte compressed SEC1 point `02`/`03 || X` (the prefix is 03 when Y is odd).
        public var x962Compressed: [UInt8] {
            [0x02 | (uncompressedPoint[64] & 1)] + uncompressedPoint[1...32]
        }

        /// Whether `derSignature` is a valid ECDSA-SHA256 signature of `message` under this key.
        ///
        /// The signature must be strict DER (`SEQUENCE { INTEGER r, INTEGER s }`, minimal encodings, no
        /// trailing bytes) with `0 < r, s < n`. Any failure, including the platform's errors, returns false.
        public func isValidSignature(_ derSignature: [UInt8], for message: [UInt8]) -> Bool {
            // DER ECDSA-P256 signatures are at most 72 bytes; refuse anything that cannot be one before any work.
            guard (8...72).contains(derSignature.count) else { return false }
            return Primitives.p256Verify(key, derSignature: derSignature, message: message)
        }

        /// Keys are equal when their points are equal.
        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
            lhs.uncompressedPoint == rhs.uncompressedPoint
        }

        /// Hashes the point.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(uncompressedPoint)
        }
    }
}
