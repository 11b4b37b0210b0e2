#if canImport(COpenSSL)
internal import COpenSSL

/// RSA keys for RSASSA-PKCS1-v1_5 with SHA-256 (JWS `RS256`, RFC 7518 §3.3) — what Google's service accounts sign
/// their OAuth assertions with. Only signing with an imported key and verifying are offered; Assent never makes RSA
/// keys.
public enum RSA: Sendable {
    /// Smallest modulus accepted, in bits (RFC 7518 §3.3 requires 2048).
    public static let minimumModulusBits = 2048

    /// Refuses keys that are not RSA or are shorter than ``minimumModulusBits``.
    static func check(_ key: EVPKey) throws(CryptoError) {
        guard EVP_PKEY_is_a(key.pointer, "RSA") == 1 else { throw CryptoError(.invalidKey, "not an RSA key") }
        let bits = EVP_PKEY_get_bits(key.pointer)
        guard bits >= Int32(minimumModulusBits) else {
            throw CryptoError(.invalidKey, "RSA key must have at least \(minimumModulusBits) bits, got \(bits)")
        }
    }

    /// A context set up for RSASSA-PKCS1-v1_5 over a SHA-256 digest, for signing or verifying.
    static func context(_ key: EVPKey, signing: Bool) throws(CryptoError) -> PKeyContext {
        let context = try key.makeContext()
        let initialised = signing ? EVP_PKEY_sign_init(context.pointer) : EVP_PKEY_verify_init(context.pointer)
        guard initialised == 1 else { throw CryptoError.openSSL(signing ? "EVP_PKEY_sign_init" : "EVP_PKEY_verify_init") }
        guard EVP_PKEY_CTX_set_rsa_padding(context.pointer, RSA_PKCS1_PADDING) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_padding")
        }
        guard EVP_PKEY_CTX_set_signature_md(context.pointer, EVP_sha256()) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_set_signature_md")
        }
        return context
    }
}

#endif
