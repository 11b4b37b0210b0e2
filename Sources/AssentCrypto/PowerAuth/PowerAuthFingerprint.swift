/// The V3 activation fingerprint both sides can show the user to compare:
/// `decimalize8(SHA-256(X(devicePublicKey) || UTF8(activationId) || X(serverPublicKey)))`, where `X` is the point's
/// affine X coordinate as a minimal big-endian byte string (leading zero bytes stripped).
public enum PowerAuthFingerprint: Sendable {
    /// The 8-digit fingerprint.
    public static func compute(devicePublicKey: P256.PublicKey, activationID: String, serverPublicKey: P256.PublicKey) -> String {
        let data = xCoordinate(devicePublicKey) + Array(activationID.utf8) + xCoordinate(serverPublicKey)
        // decimalize exactly as an 8-digit decimal signature component; it cannot throw for length 8.
        return (try? PowerAuthSignature.format([SHA256.hash(data)], as: .decimal8)) ?? ""
    }

    /// The affine X coordinate without leading zero bytes.
    public static func xCoordinate(_ key: P256.PublicKey) -> [UInt8] {
        Array(key.x962Uncompressed[1...32].drop { $0 == 0 })
    }
}
