package import AssentWire
import Foundation

extension CredentialAttestation {
    /// The verdict as the server API's authenticator reads and the `authenticator.created` webhook show it (times in
    /// ISO 8601).
    package var wire: AuthenticatorAttestation {
        AuthenticatorAttestation(
            format: format, verified: verified, securityLevel: securityLevel, app: app, environment: environment,
            osVersion: osVersion, patchLevel: patchLevel, bootState: bootState, revocationChecked: revocationChecked,
            verifiedAt: Timestamp.iso8601(milliseconds: verifiedAt))
    }

    /// ``wire`` as a JSON value, for a webhook event's `data`.
    var wireJSON: JSONValue? {
        guard let data = try? JSONEncoder().encode(wire) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}
