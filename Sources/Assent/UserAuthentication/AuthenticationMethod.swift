/// How the user proved they are present.
public enum AuthenticationMethod: String, Sendable, Hashable, Codable {
    /// A fingerprint, face or iris.
    case biometric
    /// The device PIN, pattern or passphrase.
    case deviceCredential
}
