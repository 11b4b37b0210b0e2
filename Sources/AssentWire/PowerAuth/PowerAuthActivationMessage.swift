/// The message the tenant's master key signs when the server creates an activation, shared by server and SDK so they
/// cannot drift. Lines separated by `\n`: `assent-activation-v1`, the activation id, Base64 of the device public key
/// (65-byte SEC1), Base64 of the server public key (65-byte SEC1), Base64 of `CTR_DATA`, the application key (Base64
/// text), the application secret (Base64 text).
package enum PowerAuthActivationMessage {
    /// The UTF-8 bytes to sign/verify (ECDSA P-256 SHA-256, DER).
    package static func signedMessage(
        activationId: String, devicePublicKey: String, serverPublicKey: String, ctrData: String,
        applicationKey: String, applicationSecret: String
    ) -> [UInt8] {
        Array(["assent-activation-v1", activationId, devicePublicKey, serverPublicKey, ctrData, applicationKey, applicationSecret]
            .joined(separator: "\n").utf8)
    }
}
