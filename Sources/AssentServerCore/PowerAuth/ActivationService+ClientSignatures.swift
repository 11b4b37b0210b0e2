import AssentCrypto
import AssentWire

extension ActivationService {
    /// Verifies the signature a device sent to a client endpoint (vault unlock, an approval under a factor policy)
    /// and returns its activation, or throws `401 invalid_signature`. This is the one place where a failed client
    /// verification is decided: every client endpoint that checks a PowerAuth signature comes through here, and
    /// every refusal it throws is a failed client verification of `header.activationID` (of which only a
    /// ``SignatureVerification/Failure/counted`` one spent one of the activation's attempts). When `userID` is
    /// given, an activation of another user is refused before anything is verified or counted.
    func verifyClient(
        tenant: Tenant, userID: String? = nil, method: String, uriID: String, body: [UInt8], header: PowerAuthAuthorizationHeader
    ) async throws -> ActivationRecord {
        if let userID {
            guard let activation = try await store.activation(id: header.activationID), activation.tenantID == tenant.id,
                  activation.userID == userID
            else { throw AssentError(.invalidSignature, "The signature's activation does not belong to this user.") }
        }
        let result = try await verify(
            tenantID: tenant.id, settings: tenant.settings, method: method, uriID: uriID, body: body, header: header)
        guard result.valid, let activation = result.activation else { throw Self.refusal(result) }
        return activation
    }

    static func parse(_ value: String?) throws -> PowerAuthAuthorizationHeader {
        guard let value, !value.isEmpty else {
            throw AssentError(.invalidSignature, "The \(PowerAuthAuthorizationHeader.name) header is required.")
        }
        do {
            return try PowerAuthAuthorizationHeader(parsing: value)
        } catch {
            throw AssentError(.invalidSignature, "The \(PowerAuthAuthorizationHeader.name) header is malformed: \(error.reason).")
        }
    }

    /// The error a device sees for a signature that did not verify.
    static func refusal(_ result: SignatureVerification) -> AssentError {
        switch (result.failure, result.status) {
        case (.legacyVersionRefused, _):
            return AssentError(.invalidSignature, "This tenant does not accept pa_version 3.0 signatures.")
        case (_, .active):
            return AssentError(.invalidSignature, "The signature does not verify; \(result.remainingAttempts) attempts remain.")
        case (_, .blocked):
            return AssentError(.invalidSignature, "The activation is blocked.")
        default:
            return AssentError(.invalidSignature, "The activation is not active.")
        }
    }

    /// Checks the approval-factor policy for an approval of `challenge` by `userID`: when the tenant requires a factor
    /// for it (``TenantSettings/approvalFactor(for:)``), the request must carry an `X-PowerAuth-Authorization`
    /// header of an ACTIVE activation of that user, with at least those factors, signed over (`POST`, `uriID`,
    /// `body`). Consumes the counter value; throws when refused.
    func requireApprovalFactor(tenant: Tenant, challenge: Challenge, userID: String, proof: ApprovalProof) async throws {
        guard let required = tenant.settings.approvalFactor(for: challenge) else { return }
        let header: PowerAuthAuthorizationHeader
        switch proof.signature {
        case .none:
            throw AssentError(.factorRequired, "This tenant requires approvals signed with \(required.rawValue) (\(PowerAuthAuthorizationHeader.name)).")
        case .malformed(let reason):
            throw AssentError(.invalidSignature, "The \(PowerAuthAuthorizationHeader.name) header is malformed: \(reason).")
        case .signed(let signed):
            header = signed
        }
        guard header.signatureType.satisfies(required) else {
            throw AssentError(.factorRequired, "This tenant requires approvals signed with at least \(required.rawValue).")
        }
        _ = try await verifyClient(
            tenant: tenant, userID: userID, method: "POST", uriID: proof.uriID, body: proof.body, header: header)
    }
}
