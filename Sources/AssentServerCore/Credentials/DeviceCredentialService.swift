import AssentCrypto
package import AssentWire
import Foundation

/// Device credentials (push and QR): enrolment with a track token, look-up by public key, signed removal, nonces,
/// and the signed push-credential update that renews its lease or push token. An enrolment and a removal append their
/// audit entry (actor `device`) in their own transaction.
package struct DeviceCredentialService: Sendable {
    let store: any CredentialStore
    let clock: WallClock
    let webhooks: WebhookEvents
    let nonces: NonceIssuer
    let audit: AuditLog
    let attestation: EnrolmentAttestation

    /// A device's enrolment of a key (``add(tenant:claims:method:enrolment:)``), as the HTTP layer parsed it.
    package struct Enrolment: Sendable, Hashable {
        /// The key as the device sent it: base64 of its X.509 SubjectPublicKeyInfo DER (an attestation's binding hash
        /// covers this text).
        package var publicKey: String
        /// The device's name for itself.
        package var deviceName: String?
        /// The device's platform as it names it (`ios`, `android`, ...).
        package var devicePlatform: String?
        /// The push token (APNs or FCM), kept for push credentials only.
        package var pushToken: String?
        /// Every use of the key needs user presence (iOS-style, enforced by the device).
        package var userPresenceRequired: Bool
        /// The key needs user authentication (Android-style).
        package var userAuthenticationRequired: Bool
        /// Seconds the key stays usable after one authentication (Android).
        package var authenticationTimeout: Int?
        /// `BIOMETRIC`, `DEVICE_CREDENTIAL` or `BIOMETRIC_OR_DEVICE_CREDENTIAL` (Android).
        package var authorizationType: String?
        /// The messages the credential will sign, when the device names them.
        package var signatureScheme: SignatureScheme?
        /// A device attestation of the key.
        package var attestation: EnrolmentAttestation.Statement?

        /// An enrolment of `publicKey` (as sent).
        package init(
            publicKey: String, deviceName: String? = nil, devicePlatform: String? = nil, pushToken: String? = nil,
            userPresenceRequired: Bool = false, userAuthenticationRequired: Bool = false,
            authenticationTimeout: Int? = nil, authorizationType: String? = nil, signatureScheme: SignatureScheme? = nil,
            attestation: EnrolmentAttestation.Statement? = nil
        ) {
            self.publicKey = publicKey
            self.deviceName = deviceName
            self.devicePlatform = devicePlatform
            self.pushToken = pushToken
            self.userPresenceRequired = userPresenceRequired
            self.userAuthenticationRequired = userAuthenticationRequired
            self.authenticationTimeout = authenticationTimeout
            self.authorizationType = authorizationType
            self.signatureScheme = signatureScheme
            self.attestation = attestation
        }
    }

    /// Enrols (or re-enrols) the key of `enrolment` for the token's user. The token needs scope `add:authenticators`.
    /// The credential speaks the scheme the enrolment names (absent: compatible), or `bound` whatever it names when
    /// the tenant requires bound signatures; a re-enrolment never lowers it. A device attestation is checked by the
    /// tenant's policy (``EnrolmentAttestation``) and its verdict stored with the credential, its challenge spent in
    /// the enrolment's transaction; any refusal stores nothing.
    package func add(
        tenant: Tenant, claims: TokenClaims, method: VerificationMethod, enrolment: Enrolment
    ) async throws -> Authenticator {
        guard claims.hasScope("add:authenticators") else {
            throw AssentError(.forbidden, "The token lacks the add:authenticators scope.")
        }
        let key = try DeviceKey(base64: enrolment.publicKey)
        let attested = try await attestation.check(
            tenant: tenant, userID: claims.sub, publicKey: enrolment.publicKey, key: key, statement: enrolment.attestation)
        let now = clock.nowMilliseconds()
        var candidate = Authenticator(
            id: UUID().uuidString.lowercased(), tenantID: tenant.id, userID: claims.sub, verificationMethod: method,
            createdAt: now)
        candidate.publicKey = key.der
        candidate.verifiedAt = now
        candidate.deviceName = enrolment.deviceName
        candidate.devicePlatform = enrolment.devicePlatform.map(Self.platform)
        candidate.pushToken = method == .push ? enrolment.pushToken : nil
        candidate.userPresenceRequired = enrolment.userPresenceRequired
        candidate.userAuthenticationRequired = enrolment.userAuthenticationRequired
        candidate.authenticationTimeout = enrolment.authenticationTimeout
        candidate.authorizationType = enrolment.authorizationType
        candidate.signatureScheme = tenant.settings.requireBoundSignature
            ? .bound : enrolment.signatureScheme ?? .compatible
        if let attested {
            candidate.attestation = attested.verdict
            candidate.appAttestKeyID = attested.appAttestKeyID
            candidate.appAttestPublicKey = attested.appAttestPublicKey
            candidate.appAttestCounter = attested.appAttestKeyID == nil ? nil : 0
        }
        var details = ["verificationMethod": method.rawValue]
        if let attested {
            details["attestationFormat"] = attested.verdict.format
            details["attestation"] = "verified"
        }
        if method == .push, let lease = tenant.settings.pushCredentialLifetimeSeconds {
            candidate.expiresAt = now + Int64(lease) * 1000
        }
        do {
            return try await store.enrollDeviceCredential(
                candidate, enrolmentKey: claims.idk, attestation: attested?.use,
                reenrol: { [candidate] in $0.reenrol(as: candidate) },
                audit: { [audit, details] stored in
                    audit.entry(
                        tenantID: tenant.id, .credentialEnrolled, actor: "device", subject: stored.id,
                        details: details.merging(["userId": stored.userID]) { $1 })
                }
            ) { [webhooks] stored, created in
                webhooks.authenticator(created ? .authenticatorCreated : .authenticatorUpdated, stored, tenant: tenant)
            }.authenticator
        } catch is EnrolmentTokenUsed {
            throw AssentError.enrolmentTokenUsed()
        } catch is AttestationChallengeSpent {
            throw AssentError.attestationChallengeInvalid()
        } catch is AttestationKeyUsed {
            throw AssentError(.attestationInvalid, "The attestation is not valid: key id (already used by another credential).")
        } catch let error as StoreError where error.code == .constraintViolation {
            throw AssentError(.conflict, "This key is already enrolled for another user.")
        }
    }

    /// `IOS`, `ANDROID`, `WEB` as the server API spells platforms; anything else upper-cased as given.
    static func platform(_ value: String) -> String {
        String(value.prefix(32)).uppercased()
    }

    /// The live credential for `key`: `invalid_credential` when it was never enrolled, was removed or has lapsed.
    package func credential(tenant: Tenant, method: VerificationMethod, key: DeviceKey) async throws -> Authenticator {
        try Self.live(
            try await store.authenticator(tenantID: tenant.id, method: method, publicKey: key.der),
            at: clock.nowMilliseconds())
    }

    /// The credential a device's key named (`found`, as stored), when it may act: `invalid_credential` when there is
    /// none or it has expired by `now`.
    package static func live(_ found: Authenticator?, at now: Int64) throws -> Authenticator {
        guard let authenticator = found else {
            throw AssentError(.invalidCredential, "The credential is not known; it may have been removed. Enrol again.")
        }
        guard !authenticator.isExpired(at: now) else {
            throw AssentError(.invalidCredential, "The credential has expired. Enrol again.")
        }
        return authenticator
    }

    /// Removes the credential whose key signed the current (or previous) 10-minute window: Authsignal's window
    /// message (compatible credentials) or Assent's bound removal message, which names the credential and its kind.
    /// A removal signature removes once: it is spent with the removal (until its window lapses), so replaying it —
    /// after the key was enrolled again, against the key's credential of the other kind, or against the same key's
    /// credential in another tenant — is `invalid_signature`.
    /// That is what keeps Authsignal's window message, which names no credential, from removing a re-enrolment.
    package func remove(tenant: Tenant, method: VerificationMethod, key: DeviceKey, signature: String) async throws -> Authenticator {
        guard let authenticator = try await store.authenticator(tenantID: tenant.id, method: method, publicKey: key.der) else {
            throw AssentError(.invalidCredential, "The credential is not known; it may have been removed.")
        }
        let now = clock.nowSeconds()
        guard let signed = [now, now - SignedMessage.windowSeconds].first(where: {
            key.verifies(
                signature, as: authenticator.signatureScheme, compatible: SignedMessage.timeWindow(unixSeconds: $0),
                bound: SignedMessage.removal(credentialId: authenticator.id, kind: method, unixSeconds: $0))
        }), let digest = key.digest(ofVerified: signature),
            let tenantDigest = key.tenantDigest(ofVerified: signature, tenantID: tenant.id) else {
            throw AssentError(.invalidSignature, "The signature does not verify for this credential and time.")
        }
        // Kept until the signature stops verifying anyway: the end of the window after the one it signed.
        let keepUntil = (SignedMessage.window(unixSeconds: signed) + 2) * SignedMessage.windowSeconds * 1000
        let removal = try await store.removeDeviceCredential(
            tenantID: tenant.id, userID: authenticator.userID, id: authenticator.id,
            spending: [digest, tenantDigest], keepUntil: keepUntil,
            audit: audit.entry(
                tenantID: tenant.id, .credentialRemoved, actor: "device", subject: authenticator.id,
                details: ["userId": authenticator.userID, "verificationMethod": method.rawValue])
        ) { [webhooks] in webhooks.authenticator(.authenticatorDeleted, $0, tenant: tenant) }
        switch removal {
        case .removed: return authenticator
        case .notFound: throw AssentError(.invalidCredential, "The credential is not known; it may have been removed.")
        case .signatureSpent: throw AssentError(.invalidSignature, "This removal signature was already used; sign again.")
        }
    }

    /// A message for a device to sign (``signingMessage(tenant:authenticator:purpose:)``).
    package struct SigningMessage: Sendable {
        /// The nonce's id, for an update nonce (the device sends it back with its signature); nil for a get-challenge
        /// message.
        package var id: String?
        /// The message to sign.
        package var message: String
    }

    /// The message `authenticator` signs for `purpose`: a fresh update nonce, or the current get-challenge message.
    /// Nothing is stored (``NonceIssuer``), so however often anyone asks, no device's message is evicted.
    package func signingMessage(tenant: Tenant, authenticator: Authenticator, purpose: Nonce.Purpose) -> SigningMessage {
        switch purpose {
        case .updateCredential:
            let nonce = nonces.updateNonce(tenantID: tenant.id, authenticatorID: authenticator.id)
            return SigningMessage(id: nonce.id, message: nonce.message)
        case .getChallenge:
            return SigningMessage(id: nil, message: nonces.challengeMessage(tenantID: tenant.id, authenticatorID: authenticator.id))
        }
    }

    /// Whether `signature` is `key`'s over a get-challenge message of the current or previous window for
    /// `authenticator` (which unlocks public custom data).
    package func verifiesChallengeFetch(tenant: Tenant, authenticator: Authenticator, key: DeviceKey, signature: String) -> Bool {
        nonces.acceptedChallengeMessages(tenantID: tenant.id, authenticatorID: authenticator.id)
            .contains { key.verifies(signature, message: $0) }
    }

    /// Update credential: the device signed the nonce `nonceID` (Authsignal's message, compatible credentials) or
    /// Assent's bound update message naming the credential and the nonce; sets a new push token and/or renews the lease.
    package func update(
        tenant: Tenant, key: DeviceKey, nonceID: String, signature: String, pushToken: String?, resetExpiry: Bool
    ) async throws -> Authenticator {
        let authenticator = try await credential(tenant: tenant, method: .push, key: key)
        let now = clock.nowMilliseconds()
        // The nonce proves itself (its MAC names this credential and its time); the device's signature is checked
        // before it is spent, so only the device can spend it, and spending it (an insert that a second spend finds)
        // makes it single-use.
        guard var nonce = nonces.openUpdateNonce(id: nonceID, tenantID: tenant.id, authenticatorID: authenticator.id) else {
            throw AssentError(.invalidSignature, "The signing message is unknown or expired; ask for a new one.")
        }
        guard key.verifies(
            signature, as: authenticator.signatureScheme, compatible: nonce.message,
            bound: SignedMessage.update(credentialId: authenticator.id, nonce: nonce.message))
        else {
            throw AssentError(.invalidSignature, "The signature does not verify for this key and message.")
        }
        nonce.usedAt = now
        guard try await store.spendNonce(nonce) else {
            throw AssentError(.invalidSignature, "The signing message was already used; ask for a new one.")
        }
        let lease = resetExpiry ? tenant.settings.pushCredentialLifetimeSeconds.map { now + Int64($0) * 1000 } : nil
        guard let renewed = try await store.renewDeviceCredential(
            tenantID: tenant.id, id: authenticator.id, pushToken: pushToken, expiresAt: lease, at: now,
            events: { [webhooks] in webhooks.authenticator(.authenticatorUpdated, $0, tenant: tenant) })
        else { throw AssentError(.invalidCredential, "The credential was removed.") }
        return renewed
    }

    /// Device credentials in `store`; each change queues its `authenticator.*` event through `webhooks`, and
    /// enrolments and removals their entry in `audit`.
    package init(
        store: any CredentialStore, clock: WallClock, webhooks: WebhookEvents, nonces: NonceIssuer, audit: AuditLog,
        attestation: EnrolmentAttestation
    ) {
        self.store = store
        self.clock = clock
        self.webhooks = webhooks
        self.nonces = nonces
        self.audit = audit
        self.attestation = attestation
    }
}
