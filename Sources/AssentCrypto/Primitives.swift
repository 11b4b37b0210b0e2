/// The primitive operations AssentCrypto's public types are built on, implemented once per platform:
/// `OpenSSL/Primitives+OpenSSL*.swift` on Linux (`#if canImport(COpenSSL)`) and `CryptoKit/Primitives+CryptoKit*.swift` on Apple
/// platforms (`#if canImport(CryptoKit)`, CryptoKit, CommonCrypto and Security).
///
/// The public types (``AES``, ``P256``, ``HMACSHA256``, ``HKDFSHA256``, ``PBKDF2``, ``SHA256``, ``SecureRandom``,
/// ``ConstantTime``) check every argument and state every error before calling here, so a backend receives only
/// valid sizes and holds no logic of its own: it maps each call onto one platform API. Both backends run the same
/// known-answer and Wycheproof vectors (Tests/AssentCryptoTests).
///
/// What each backend provides (all `static`):
/// - `gcmNonceByteCountRange`; `sha256`, `sha1`, `hmacSHA256`, `hkdfSHA256`, `pbkdf2`, `randomBytes`, `equalBytes`;
/// - `aesECBEncrypt`, `aesCBC`, `aesGCMSeal`, `aesGCMOpen`;
/// - `P256KeyPair` and `P256Point` (the platform's key objects), `p256Generate`, `p256KeyPair(scalar:)`,
///   `p256Scalar`, `p256PublicPoint`, `p256Point(x962:)`, `p256Sign`, `p256Verify`, `p256SharedSecret`,
///   `pkcs8P256Scalar`.
enum Primitives {}
