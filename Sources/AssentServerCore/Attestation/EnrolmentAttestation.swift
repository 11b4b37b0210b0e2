package import AssentAttestation
import AssentCrypto
import AssentWire

/// Applies a tenant's attestation policy to an enrolment (``AttestationPolicy``): `off` ignores what comes, `record`
/// verifies what comes and accepts none, `require` refuses none (`403 attestation_required`). A statement that does
/// not verify is `400 attestation_invalid` naming the failed step, whatever the policy but `off`; one whose challenge
/// is unknown, expired, spent or another user's is `400 attestation_challenge_invalid`.
///
/// Decisions: the challenge is checked here before the (costlier) verification, and spent by the enrolment's own
/// transaction (``AttestationChallengeUse``), so a refused enrolment spends nothing and two enrolments with one
/// challenge cannot both succeed. The binding hash uses the public key exactly as the enrolment sent it.
package struct EnrolmentAttestation: Sendable {
    let challenges: any AttestationChallengeStore
    let appAttest: AppAttestVerifier
    let android: AndroidKeyAttestationVerifier
    let clock: WallClock
    /// Google's revocation status list for Android chains, when the operator set a source.
    let statusList: AndroidStatusListCache?
    /// Where verdicts are counted (`assent_attestation_verdicts_total`).
    let metrics: DomainMetrics?

    /// What a verified statement adds to the enrolment.
    package struct Attested: Sendable, Hashable {
        /// The verdict stored with the credential.
        package var verdict: CredentialAttestation
        /// The challenge the enrolment's transaction spends.
        package var use: AttestationChallengeUse
        /// App Attest: the key id (unique among credentials) and the attested key, for later assertions.
        package var appAttestKeyID: [UInt8]?
        package var appAttestPublicKey: [UInt8]?
    }

    /// Attestations verified against `trustAnchors`, their challenges in `challenges`; Android chains also against
    /// `statusList`'s copy when there is a fresh one; verdicts counted in `metrics`.
    package init(
        challenges: any AttestationChallengeStore, trustAnchors: AttestationTrustAnchors, clock: WallClock,
        statusList: AndroidStatusListCache? = nil, metrics: DomainMetrics? = nil
    ) {
        self.challenges = challenges
        appAttest = AppAttestVerifier(trustAnchors: trustAnchors)
        android = AndroidKeyAttestationVerifier(trustAnchors: trustAnchors)
        self.clock = clock
        self.statusList = statusList
        self.metrics = metrics
    }

    /// The verdict of `statement` (see ``verdict(tenant:userID:publicKey:key:statement:)``), counted in the metrics
    /// by format and outcome.
    package func check(
        tenant: Tenant, userID: String, publicKey: String, key: DeviceKey?, statement: Statement?
    ) async throws -> Attested? {
        let format: DomainMetrics.AttestationFormat = switch statement?.format {
        case nil: .none
        case AppAttestVerifier.format: .appleAppAttest
        default: .androidKey
        }
        do {
            let attested = try await verdict(tenant: tenant, userID: userID, publicKey: publicKey, key: key, statement: statement)
            if attested != nil { metrics?.attestationVerdict(format, .verified) }
            return attested
        } catch let error as AssentError {
            switch error.code {
            case .attestationRequired: metrics?.attestationVerdict(.none, .missing)
            case .attestationInvalid: metrics?.attestationVerdict(format, .invalid)
            case .attestationChallengeInvalid: metrics?.attestationVerdict(format, .challengeInvalid)
            default: break
            }
            throw error
        }
    }

    /// The verdict of `statement` for the key `publicKey` (as sent; `key` parsed) enrolled by `userID`, under the
    /// tenant's policy; nil when there is nothing to record. Without `key` (a PowerAuth activation's ECDH key, which
    /// no Android attestation can name) only `apple-appattest` is accepted: another format is `attestation_invalid`
    /// (`format`).
    private func verdict(
        tenant: Tenant, userID: String, publicKey: String, key: DeviceKey?, statement: Statement?
    ) async throws -> Attested? {
        let settings = tenant.settings
        switch settings.attestationPolicy {
        case .off: return nil
        case .record: guard statement != nil else { return nil }
        case .require:
            guard statement != nil else {
                throw AssentError(.attestationRequired, "This tenant enrols only keys with a device attestation.")
            }
        }
        guard let statement else { return nil }
        guard key != nil || statement.format == AppAttestVerifier.format else {
            throw AssentError(
                .attestationInvalid,
                "The attestation is not valid: format (a PowerAuth activation takes only \(AppAttestVerifier.format)).")
        }
        let now = clock.nowMilliseconds()
        guard let challenge = try await challenges.attestationChallenge(tenantID: tenant.id, value: statement.challenge),
              challenge.userID == userID, challenge.spentAt == nil, now < challenge.expiresAt else {
            throw AssentError.attestationChallengeInvalid()
        }
        let binding = AttestationBinding.bindingHash(challenge: statement.challenge, publicKey: publicKey)
        let use = AttestationChallengeUse(challenge: statement.challenge, userID: userID, at: now)
        do throws(AttestationError) {
            switch statement.format {
            case AppAttestVerifier.format:
                guard let keyId = statement.keyID.flatMap(Base64.decode),
                      let object = statement.attestationObject.flatMap(Base64.decode) else {
                    throw AttestationError(.malformed, "keyId and attestationObject must be base64")
                }
                let verdict = try appAttest.verifyAttestation(
                    object, keyId: keyId, clientDataHash: binding,
                    policy: AppAttestPolicy(appIds: settings.appleAppIds, environments: Self.environments(settings)),
                    nowMilliseconds: now)
                return Attested(
                    verdict: CredentialAttestation(
                        format: AppAttestVerifier.format, verified: true, app: verdict.appId,
                        environment: verdict.environment.rawValue, verifiedAt: now),
                    use: use, appAttestKeyID: verdict.keyId, appAttestPublicKey: verdict.publicKey)
            default:
                var chain: [[UInt8]] = []
                for text in statement.certificateChain {
                    guard let der = Base64.decode(text) else {
                        throw AttestationError(.malformed, "a certificate of the chain is not base64")
                    }
                    chain.append(der)
                }
                let verdict = try android.verify(
                    certificateChain: chain,
                    policy: AndroidKeyAttestationPolicy(
                        challenge: binding, credentialPublicKey: key?.der ?? [], packages: Self.packages(settings),
                        minimumSecurityLevel: settings.androidMinimumSecurityLevel == .strongbox ? .strongBox : .trustedEnvironment,
                        requireLockedBootloader: settings.androidRequireLockedBootloader),
                    statusList: statusList?.current(), nowMilliseconds: now)
                return Attested(
                    verdict: CredentialAttestation(
                        format: AndroidKeyAttestationVerifier.format, verified: true,
                        securityLevel: min(verdict.attestationSecurityLevel, verdict.keyMintSecurityLevel).name,
                        app: verdict.packageName, osVersion: verdict.osVersion, patchLevel: verdict.osPatchLevel,
                        bootState: verdict.verifiedBootState?.name, revocationChecked: verdict.revocationChecked,
                        verifiedAt: now),
                    use: use)
            }
        } catch {
            throw AssentError(.attestationInvalid, "The attestation is not valid: \(error.step).")
        }
    }

    private static func environments(_ settings: TenantSettings) -> Set<AppAttestEnvironment> {
        switch settings.appleAttestationEnvironment {
        case .production: [.production]
        case .development: [.development]
        case .both: [.production, .development]
        }
    }

    private static func packages(_ settings: TenantSettings) -> [AndroidPackage] {
        settings.androidPackages.map { rule in
            AndroidPackage(
                packageName: rule.packageName,
                signingCertificateSHA256: rule.signingCertificateSha256.compactMap(Self.hexBytes))
        }
    }

    private static func hexBytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
