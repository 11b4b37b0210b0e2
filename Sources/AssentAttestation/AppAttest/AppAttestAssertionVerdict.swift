/// What a verified App Attest assertion says.
package struct AppAttestAssertionVerdict: Sendable, Hashable {
    /// The app id whose SHA-256 is the assertion's rpIdHash.
    package let appId: String
    /// The assertion's counter, to be stored as the last one seen.
    package let counter: UInt32
}
