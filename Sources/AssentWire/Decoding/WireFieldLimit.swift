/// The longest value, in UTF-8 bytes, that the server reads for a field several requests carry: one limit per field,
/// whichever request sends it.
package enum WireFieldLimit {
    /// `challengeId`: a challenge's or a signing nonce's id (the server's own are far shorter).
    package static let challengeId = 200
    /// `publicKey`: a credential's X.509 SubjectPublicKeyInfo in Base64 (124 characters for P-256).
    package static let publicKey = 512
    /// `signature` and `boundSignature`: a Base64 DER ECDSA signature (at most 96 characters for P-256).
    package static let signature = 256
    /// `pushToken`: an APNs device token or an FCM registration token.
    package static let pushToken = 4096
    /// `email`: the longest address SMTP carries.
    package static let email = 320
    /// `phoneNumber`.
    package static let phoneNumber = 32
    /// `username`.
    package static let username = 255
    /// `locale`: a BCP 47 language tag.
    package static let locale = 35
}
