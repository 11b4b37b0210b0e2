package import AssentCrypto

extension JWT {
    /// A key to sign tokens with; its case fixes the `alg`.
    package enum SigningKey: Sendable {
        /// HMAC-SHA256 with a shared secret of at least 32 bytes.
        case hs256([UInt8])
        /// ECDSA P-256 with SHA-256.
        case es256(P256.PrivateKey)
        #if os(Linux)
        /// RSASSA-PKCS1-v1_5 with SHA-256 (Google service-account assertions; the server's, so only where
        /// AssentCrypto has its OpenSSL backend).
        case rs256(RSA.PrivateKey)
        #endif

        /// The JWS `alg` value.
        var algorithm: String {
            switch self {
            case .hs256: "HS256"
            case .es256: "ES256"
            #if os(Linux)
            case .rs256: "RS256"
            #endif
            }
        }
    }

    /// A key to verify tokens with; a token is accepted only if its `alg` matches this key's case.
    package enum VerificationKey: Sendable {
        /// HMAC-SHA256 with a shared secret of at least 32 bytes.
        case hs256([UInt8])
        /// ECDSA P-256 with SHA-256.
        case es256(P256.PublicKey)
        #if os(Linux)
        /// RSASSA-PKCS1-v1_5 with SHA-256 (the server's, as above).
        case rs256(RSA.PublicKey)
        #endif

        /// The JWS `alg` value this key accepts.
        var algorithm: String {
            switch self {
            case .hs256: "HS256"
            case .es256: "ES256"
            #if os(Linux)
            case .rs256: "RS256"
            #endif
            }
        }
    }
}
