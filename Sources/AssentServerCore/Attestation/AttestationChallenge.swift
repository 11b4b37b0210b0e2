/// A challenge a device's attestation commits to (through `AttestationBinding.bindingHash`): issued to one user of
/// one tenant for an enrolment token, stored, valid for ``lifetimeMilliseconds``, spent by the one enrolment that
/// uses it.
package struct AttestationChallenge: Sendable, Hashable {
    /// How long a challenge may be used: five minutes, the most the wire allows.
    package static let lifetimeMilliseconds: Int64 = 5 * 60 * 1000
    /// The random bytes in a challenge.
    package static let byteCount = 32

    /// base64url (no padding) of ``byteCount`` random bytes: the challenge as the device sends it back.
    package var value: String
    /// The tenant of the token it was issued for.
    package var tenantID: String
    /// The user of the token it was issued for.
    package var userID: String
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// Milliseconds since the epoch; the challenge is refused from this moment.
    package var expiresAt: Int64
    /// When an enrolment spent it (nil while unused).
    package var spentAt: Int64?

    /// A challenge with every field given.
    package init(value: String, tenantID: String, userID: String, createdAt: Int64, expiresAt: Int64, spentAt: Int64? = nil) {
        self.value = value
        self.tenantID = tenantID
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.spentAt = spentAt
    }
}
