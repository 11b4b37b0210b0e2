import AssentCrypto
import AssentWire
import Foundation

extension ActivationService {
    /// A device's request for an activation (``create(tenant:claims:enrolment:)``), as the HTTP layer parsed it.
    package struct Enrolment: Sendable, Hashable {
        /// The device's P-256 ECDH public key as it sent it: base64 of the SEC1 uncompressed point (an attestation's
        /// binding hash and the activation's signed message cover this text).
        package var devicePublicKey: String
        /// A name for the activation ("Alice's phone").
        package var name: String?
        /// An App Attest attestation of the key.
        package var attestation: EnrolmentAttestation.Statement?

        /// An activation request for `devicePublicKey` (as sent).
        package init(devicePublicKey: String, name: String? = nil, attestation: EnrolmentAttestation.Statement? = nil) {
            self.devicePublicKey = devicePublicKey
            self.name = name
            self.attestation = attestation
        }
    }

    /// Creates an activation for the track token's user from the device's ECDH public key. An App Attest attestation
    /// is checked by the tenant's attestation policy as an enrolment's is (``EnrolmentAttestation``, its binding hash
    /// over `devicePublicKey` as sent; `android-key` is refused, the PowerAuth key being kept in software), its
    /// verdict stored with the activation and its challenge spent in the activation's transaction; any refusal stores
    /// nothing.
    package func create(tenant: Tenant, claims: TokenClaims, enrolment: Enrolment) async throws -> ActivationCreated {
        guard claims.hasScope("add:authenticators") else {
            throw AssentError(.forbidden, "The token lacks the add:authenticators scope.")
        }
        guard let deviceKeyBytes = Base64.decode(enrolment.devicePublicKey), deviceKeyBytes.count == 65,
              let deviceKey = try? P256.PublicKey(x962: deviceKeyBytes)
        else {
            throw AssentError(.invalidRequest, "devicePublicKey must be Base64 of a 65-byte uncompressed P-256 point.")
        }
        let attested = try await attestation?.check(
            tenant: tenant, userID: claims.sub, publicKey: enrolment.devicePublicKey, key: nil, statement: enrolment.attestation)
        let masterKey = try P256.PrivateKey(rawRepresentation: try await masterPrivateKey(tenantID: tenant.id))
        let application = try await application(tenantID: tenant.id)
        let id = UUID().uuidString.lowercased()
        // The per-activation server key lives only for this ECDH; the master secret is what gets stored (sealed).
        let serverKey = P256.PrivateKey()
        let masterSecret = try PowerAuth.masterSecret(privateKey: serverKey, publicKey: deviceKey)
        let counterData = SecureRandom.bytes(16)
        let fingerprint = PowerAuthFingerprint.compute(devicePublicKey: deviceKey, activationID: id, serverPublicKey: serverKey.publicKey)
        let now = clock.nowMilliseconds()
        let status: ActivationStatus = tenant.settings.requireActivationCommit ? .pendingCommit : .active
        var record = ActivationRecord(
            id: id, tenantID: tenant.id, userID: claims.sub, name: enrolment.name, status: status,
            devicePublicKey: deviceKey.x962Uncompressed, serverPublicKey: serverKey.publicKey.x962Uncompressed,
            sealedMasterSecret: try sealer.seal(masterSecret, context: Self.masterSecretContext(id)), counterData: counterData,
            fingerprint: fingerprint, enrolmentKey: claims.idk, createdAt: now, updatedAt: now)
        if let attested {
            record.attestation = attested.verdict
            record.appAttestKeyID = attested.appAttestKeyID
            record.appAttestPublicKey = attested.appAttestPublicKey
            record.appAttestCounter = attested.appAttestKeyID == nil ? nil : 0
        }
        do {
            try await store.insertActivation(record, attestation: attested?.use)
        } catch is EnrolmentTokenUsed {
            throw AssentError.enrolmentTokenUsed()
        } catch is AttestationChallengeSpent {
            throw AssentError.attestationChallengeInvalid()
        } catch is AttestationKeyUsed {
            throw AssentError(.attestationInvalid, "The attestation is not valid: key id (already used by another credential).")
        } catch let error as StoreError where error.code == .constraintViolation {
            // The unique enrolment key behind the rule above.
            throw AssentError.enrolmentTokenUsed()
        }
        let serverPublic = Base64.encode(serverKey.publicKey.x962Uncompressed)
        let ctr = Base64.encode(counterData)
        let message = PowerAuthActivationMessage.signedMessage(
            activationId: id, devicePublicKey: enrolment.devicePublicKey, serverPublicKey: serverPublic, ctrData: ctr,
            applicationKey: application.applicationKey, applicationSecret: application.applicationSecret)
        return ActivationCreated(
            activationID: id, serverPublicKey: serverKey.publicKey.x962Uncompressed, counterData: counterData,
            signature: try masterKey.signature(for: message), fingerprint: fingerprint,
            applicationKey: application.applicationKey, applicationSecret: application.applicationSecret, status: status)
    }
}
