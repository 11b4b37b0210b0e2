/// The JSON document of one sealed key.
struct KeyFile: Codable {
    enum Protection: String, Codable { case passphrase, keyfile }
    struct KDF: Codable {
        var algorithm: String
        var iterations: Int
        var salt: String
    }

    var format: String
    var name: String
    var publicKey: String
    var userPresenceRequired: Bool
    /// Android-style policy; absent (nil) on keys without it, so older files keep their associated data.
    var userAuthenticationRequired: Bool?
    var timeout: Int?
    var authorizationType: String?
    /// The id the server gave the key's credential (``CredentialIDStore``), absent until the SDK learnt it. Not part
    /// of ``associatedData``: a hint the server checks, changed without sealing the key again, and ignored by versions
    /// that predate it.
    var credentialId: String?
    var protection: Protection
    var kdf: KDF?
    var nonce: String
    var ciphertext: String
    var tag: String

    /// Everything but the ciphertext, bound into the GCM tag.
    var associatedData: [UInt8] {
        let kdfText = kdf.map { "\($0.algorithm):\($0.iterations):\($0.salt)" } ?? "-"
        var fields = [format, name, publicKey, String(userPresenceRequired), protection.rawValue, kdfText]
        if let userAuthenticationRequired {
            fields.append("auth:\(userAuthenticationRequired):\(timeout ?? -1):\(authorizationType ?? "-")")
        }
        return Array(fields.joined(separator: "\n").utf8)
    }
}
