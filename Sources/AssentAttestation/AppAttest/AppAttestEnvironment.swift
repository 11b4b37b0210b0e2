/// An App Attest environment, as the aaguid of an attestation names it.
package enum AppAttestEnvironment: String, Sendable, Hashable, CaseIterable {
    /// aaguid `appattest` followed by seven zero bytes.
    case production
    /// aaguid `appattestdevelop` (apps signed for development).
    case development

    /// The 16 aaguid bytes of this environment.
    var aaguid: [UInt8] {
        switch self {
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        case .development: Array("appattestdevelop".utf8)
        }
    }
}
