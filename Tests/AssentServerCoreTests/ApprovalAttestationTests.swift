import AssentWire
import Testing
@testable import AssentServerCore

/// Which answers need an attested credential, and what an answer from each kind of credential must bring.
@Suite struct ApprovalAttestationTests {
    static func tenant(all: Bool = false, actions: [String] = []) -> Tenant {
        var settings = TenantSettings()
        settings.requireAttestedApprovals = all
        settings.attestedApprovalActions = actions
        return Tenant(id: "t", name: "t", secretHash: [], secretVersion: 1, keyVersion: 1, settings: settings, createdAt: 0)
    }

    static func credential(format: String? = nil, verified: Bool = true) -> Authenticator {
        var credential = Authenticator(id: "a", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 0)
        if let format {
            credential.attestation = CredentialAttestation(format: format, verified: verified, app: "TEAM.app", verifiedAt: 0)
        }
        if format == "apple-appattest" {
            credential.appAttestPublicKey = [4] + [UInt8](repeating: 1, count: 64)
            credential.appAttestCounter = 3
        }
        return credential
    }

    func check(_ tenant: Tenant, _ credential: Authenticator, action: String? = "pay", assertion: String? = nil) throws -> Int64? {
        try ApprovalAttestation().check(
            tenant: tenant, authenticator: credential, actionCode: action, decision: "decision", assertion: assertion)
    }

    @Test func `the list names actions, the flag covers every action, and neither asks nothing`() {
        #expect(ApprovalAttestation.isRequired(Self.tenant(actions: ["pay"]).settings, actionCode: "pay"))
        #expect(!ApprovalAttestation.isRequired(Self.tenant(actions: ["pay"]).settings, actionCode: "signIn"))
        #expect(!ApprovalAttestation.isRequired(Self.tenant(actions: ["pay"]).settings, actionCode: nil))
        #expect(ApprovalAttestation.isRequired(Self.tenant(all: true).settings, actionCode: nil))
        #expect(!ApprovalAttestation.isRequired(Self.tenant().settings, actionCode: "pay"))
    }

    @Test func `an unattested credential, or one whose attestation did not verify, is refused where it is required`() throws {
        for credential in [Self.credential(), Self.credential(format: "android-key", verified: false)] {
            #expect(throws: AssentError(.attestationRequired, "")) { try check(Self.tenant(actions: ["pay"]), credential) }
            #expect(throws: AssentError(.attestationRequired, "")) {
                try ApprovalAttestation().requireAttested(
                    tenant: Self.tenant(all: true), authenticator: credential, actionCode: "signIn")
            }
            // Where nothing is required, it answers as before (and an assertion it sends is ignored).
            #expect(try check(Self.tenant(actions: ["pay"]), credential, action: "signIn", assertion: "junk") == nil)
        }
    }

    @Test func `an attested Android credential needs no assertion and stores no counter`() throws {
        #expect(try check(Self.tenant(all: true), Self.credential(format: "android-key")) == nil)
    }

    @Test func `an App Attest credential must bring an assertion that verifies`() throws {
        let credential = Self.credential(format: "apple-appattest")
        #expect(throws: AssentError(.attestationRequired, "")) { try check(Self.tenant(all: true), credential) }
        #expect(throws: AssentError(.attestationInvalid, "")) { try check(Self.tenant(all: true), credential, assertion: "%%") }
        #expect(throws: AssentError(.attestationInvalid, "")) { try check(Self.tenant(all: true), credential, assertion: "oA==") }
        // Not required for this action: nothing asked, nothing stored.
        #expect(try check(Self.tenant(actions: ["transfer"]), credential) == nil)
    }
}
