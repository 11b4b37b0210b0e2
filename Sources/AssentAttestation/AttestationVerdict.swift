/// A verdict of either format, for code that stores or prints them alike.
package enum AttestationVerdict: Sendable, Hashable {
    /// An `apple-appattest` verdict.
    case appleAppAttest(AppAttestVerdict)
    /// An `android-key` verdict.
    case androidKey(AndroidKeyVerdict)

    /// The wire's format name: `apple-appattest` or `android-key`.
    package var format: String {
        switch self {
        case .appleAppAttest: AppAttestVerifier.format
        case .androidKey: AndroidKeyAttestationVerifier.format
        }
    }

    /// The app the attestation names: the App Attest app id or the Android package.
    package var app: String {
        switch self {
        case .appleAppAttest(let verdict): verdict.appId
        case .androidKey(let verdict): verdict.packageName
        }
    }
}
