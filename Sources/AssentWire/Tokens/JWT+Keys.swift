package import AssentCrypto

extension JWT {
    /// A key to sign tokens with; its case fixes the `alg`.
    package enum SigningKey: Sendable {
        /// HMAC-SHA256 with a shared secret of at least 32 bytes.
        case hs256([UInt8])
        /// ECDSA P-256 with SHA-256.
        case es256(P256.PrivateKey)
        /// RSASSA-PKCS1-v1_5 with SHA-256 (Google service-account assertions).
        case rs256(RSA.PrivateKey)

        /// The JWS `alg` value.
        var algorithm: String {
            switch self {
            case .hs256: "HS256"
            case .es256: "ES256"
            case .rs256: "RS256"
            }
        }
    }

    /// A key to verify tokens with; a token is accepted only if its `alg` matches this key's case.
    package enum VerificationKey: Sendable {
        /// HMAC-SHA256 with a shared secret of at least 32 bytes.
        case hs256([UInt8])
        /// ECDSA P-256 with SHA-256.
        case es256(P256.PublicKey)
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256(RSA.PublicKey)

        /// The JWS `alg` value this key accepts.
        var algorithm: String {
            switch self {
            case .hs256: "HS256"
            case .es256: "ES256"
            case .rs256: "RS256"
            }
        }
    }
}
