/// The device keys of seeded test users (`assent admin seed`), derived from a seed and the user's index, so the loader
/// can store each device's public key and a benchmark can sign as any seeded device with nothing shared but the seed.
///
/// The scalar is `HKDF-SHA256(ikm: seed, salt: "", info: "assent-seed" || credential || index (8 bytes, big-endian)
/// || attempt)`, 32 bytes; `attempt` counts up from 0 in the (2⁻³² likely) case that a candidate is not in `1 ..< n`.
/// Test data only: whoever knows the seed holds every seeded device's private key.
public enum SeededDevice: Sendable {
    /// Which of a seeded user's device keys.
    public enum Credential: UInt8, Sendable, CaseIterable {
        /// The push credential's key.
        case push = 1
        /// The QR (device) credential's key.
        case qrCode = 2
        /// The PowerAuth activation's device key.
        case powerAuth = 3
    }

    /// The seed used when none is given.
    public static let defaultSeed = "assent-seed"

    /// The user ID of seeded user `index` (0-based).
    public static func userID(_ index: Int) -> String { "seed-user-\(index)" }

    /// The device key of seeded user `index` for `credential`.
    ///
    /// - Throws: `CryptoError` only if OpenSSL fails.
    public static func privateKey(seed: String, index: Int, credential: Credential = .push) throws -> P256.PrivateKey {
        var info = Array("assent-seed".utf8) + [credential.rawValue]
        withUnsafeBytes(of: UInt64(index).bigEndian) { info.append(contentsOf: $0) }
        for attempt in UInt8.min...UInt8.max {
            let scalar = try HKDFSHA256.deriveKey(
                inputKeyMaterial: Array(seed.utf8), salt: [], info: info + [attempt], outputByteCount: 32)
            do {
                return try P256.PrivateKey(rawRepresentation: scalar)
            } catch let error as CryptoError where error.code == .invalidKey {
                continue
            }
        }
        throw CryptoError(.internalFailure, "no P-256 scalar in 256 attempts")
    }
}
