import AssentAttestation
import AssentCrypto

/// Approvals that require an attested credential (``TenantSettings/requireAttestedApprovals`` for every action,
/// ``TenantSettings/attestedApprovalActions`` for some): the answer to such a challenge must come from a credential
/// whose enrolment carried a verified attestation, else `403 attestation_required`; from an App Attest credential it
/// must also carry an App Attest assertion over the bound decision message, else `403 attestation_required`, and one
/// that does not verify is `400 attestation_invalid` naming the step.
///
/// Decisions: declines are gated as approvals are. A decline is a decision too: it closes the challenge, fails the
/// action for good, and with "this wasn't me" locks the user's pushes — what the tenant asked only attested devices
/// to decide. The QR claim is gated as well (it takes the challenge for one device), so an unattested device cannot
/// hold a challenge it may not answer; the challenge stays pending for the page. The checks run before anything
/// changes; the assertion's counter is returned for the store to advance in the answer's own transaction
/// (compare-and-set), so two answers with one counter cannot both pass. An assertion sent where none is required is
/// ignored (the tenant asked nothing of it).
package struct ApprovalAttestation: Sendable {
    let assertions = AppAttestAssertionVerifier()

    /// The checks, stateless.
    package init() {}

    /// Whether the tenant's settings require an attested credential to answer a challenge of `actionCode`.
    package static func isRequired(_ settings: TenantSettings, actionCode: String?) -> Bool {
        settings.requireAttestedApprovals || actionCode.map(settings.attestedApprovalActions.contains) == true
    }

    /// Refuses (`403 attestation_required`) a credential without a verified attestation where the tenant requires
    /// one for `actionCode`; what a QR claim checks.
    package func requireAttested(tenant: Tenant, authenticator: Authenticator, actionCode: String?) throws {
        guard Self.isRequired(tenant.settings, actionCode: actionCode) else { return }
        guard authenticator.attestation?.verified == true else {
            throw AssentError(
                .attestationRequired, "This action must be answered by a credential enrolled with a verified device attestation.")
        }
    }

    /// Checks an answer (approval or denial) by `authenticator` to a challenge of `actionCode`, whose bound decision
    /// message is `decision`: returns the App Attest counter to store with the answer, or nil when none is to be
    /// stored (not required, or not an App Attest credential).
    package func check(
        tenant: Tenant, authenticator: Authenticator, actionCode: String?, decision: String, assertion: String?
    ) throws -> Int64? {
        try requireAttested(tenant: tenant, authenticator: authenticator, actionCode: actionCode)
        guard Self.isRequired(tenant.settings, actionCode: actionCode),
              let verdict = authenticator.attestation, verdict.format == AppAttestVerifier.format
        else { return nil }
        guard let assertion, let publicKey = authenticator.appAttestPublicKey else {
            throw AssentError(
                .attestationRequired,
                "This action must be answered with an App Attest assertion (appAttestAssertion) over the decision.")
        }
        do throws(AttestationError) {
            guard let bytes = Base64.decode(assertion) else {
                throw AttestationError(.malformed, "appAttestAssertion is not base64")
            }
            let verified = try assertions.verify(
                bytes, clientDataHash: SHA256.hash(Array(decision.utf8)), publicKey: publicKey, appIds: [verdict.app],
                lastCounter: UInt32(clamping: authenticator.appAttestCounter ?? 0))
            return Int64(verified.counter)
        } catch {
            throw AssentError(.attestationInvalid, "The App Attest assertion is not valid: \(error.step).")
        }
    }
}
