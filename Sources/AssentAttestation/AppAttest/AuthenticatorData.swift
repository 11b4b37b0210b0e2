/// WebAuthn authenticator data as App Attest uses it: rpIdHash (32) ‖ flags (1) ‖ counter (4, big-endian), then in an
/// attestation the attested credential data: aaguid (16) ‖ credentialId length (2) ‖ credentialId ‖ COSE key (CBOR).
package struct AuthenticatorData: Sendable {
    package let rpIdHash: [UInt8]
    package let flags: UInt8
    package let counter: UInt32
    /// The attested credential data, present in an attestation.
    package let aaguid: [UInt8]?
    package let credentialId: [UInt8]?
    package let credentialPublicKey: CBORValue?

    /// The flag that says attested credential data follows the counter.
    static let attestedCredentialDataFlag: UInt8 = 0x40

    /// Parses `bytes`; `attested` requires the attested credential data (an attestation) and nothing after the key.
    package init(_ bytes: [UInt8], attested: Bool) throws(AttestationError) {
        guard bytes.count >= 37 else { throw AttestationError(.malformed, "authenticator data of \(bytes.count) bytes") }
        rpIdHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard attested else {
            aaguid = nil
            credentialId = nil
            credentialPublicKey = nil
            return
        }
        guard flags & Self.attestedCredentialDataFlag != 0, bytes.count >= 55 else {
            throw AttestationError(.malformed, "authenticator data without attested credential data")
        }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard length <= bytes.count - 55 else { throw AttestationError(.malformed, "a credential id runs past the end") }
        credentialId = Array(bytes[55..<55 + length])
        credentialPublicKey = try CBORReader.decode(Array(bytes[(55 + length)...]))
    }
}
