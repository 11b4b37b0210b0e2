import AssentCrypto
import AssentWire

/// Builds the rows of seeded test users for `assent admin seed`. User `i` is ``SeededDevice/userID(_:)`` with a push
/// credential whose key is ``SeededDevice/privateKey(seed:index:credential:)`` (so a benchmark can sign as it) and,
/// when asked, a QR (`DEVICE`) credential and an active PowerAuth activation, each with its own derived key; plus a
/// little history a real user leaves: an enrolment and three push sign-ins over the past day — one approved (its token
/// validated), one denied and one that expired unanswered — and with QR one approved QR sign-in.
///
/// Nothing is left pending: every challenge was answered or expired at least two hours before `now`, longer ago than
/// the push guard looks back (``PushGuard/window``), so a seeded user starts a push like any quiet user; `assentd`
/// sweeps the challenges a day after they expired, as it sweeps any.
///
/// Every id is derived from the tenant, the seed and the index, so the same seed makes the same rows and seeding
/// again inserts nothing new (``SeedStore``).
package struct Seeder: Sendable {
    let tenant: Tenant
    let seed: String
    let qrCode: Bool
    let powerAuth: Bool
    let now: Int64
    private let sealer: SecretSealer

    /// A seeder for `tenant` at `now` (milliseconds); `masterKey` seals the activations' master secrets, as
    /// ``ActivationService`` seals them.
    package init(tenant: Tenant, seed: String, qrCode: Bool, powerAuth: Bool, masterKey: [UInt8], now: Int64) {
        self.init(
            tenant: tenant, seed: seed, qrCode: qrCode, powerAuth: powerAuth,
            keys: MasterKeys(MasterKeyRing(single: masterKey)), now: now)
    }

    /// A seeder for `tenant` at `now` (milliseconds); the current version of the master key ring `keys` seals the
    /// activations' master secrets, as ``ActivationService`` seals them.
    package init(tenant: Tenant, seed: String, qrCode: Bool, powerAuth: Bool, keys: MasterKeys, now: Int64) {
        self.tenant = tenant
        self.seed = seed
        self.qrCode = qrCode
        self.powerAuth = powerAuth
        self.now = now
        sealer = SecretSealer(keys: keys)
    }

    /// The rows of the users with these indices.
    package func batch(_ indices: Range<Int>) throws -> SeedBatch {
        var batch = SeedBatch()
        for index in indices {
            try add(index, to: &batch)
        }
        return batch
    }

    private static let pushSignIns: [(state: Challenge.State?, action: ActionState)] = [
        (.approved, .challengeSucceeded), (.denied, .challengeFailed), (nil, .challengeRequired),
    ]

    private func add(_ index: Int, to batch: inout SeedBatch) throws {
        let userID = SeededDevice.userID(index)
        // Spread over the 20 hours that end two hours ago, a second apart per user.
        let start = now - 22 * 3_600_000 + Int64(index % 72_000) * 1000
        let timeout = Int64(tenant.settings.challengeTimeoutSeconds) * 1000
        var user = User(tenantID: tenant.id, userID: userID, now: start)
        user.username = userID
        user.displayName = "Seeded user \(index)"
        batch.users.append(user)

        let enrolment = action(index, "enrol", code: "enrol", userID: userID, state: .allow, at: start)
        batch.actions.append(enrolment)
        let push = try credential(index, .push, userID: userID, at: start)
        batch.authenticators.append(push)

        for (number, signIn) in Self.pushSignIns.enumerated() {
            let at = start + Int64(number + 1) * 60_000
            var tracked = action(index, "push-\(number)", code: "signIn", userID: userID, state: signIn.action, at: at)
            var challenge = Challenge(
                id: identifier(index, "challenge-push-\(number)", bytes: 32), tenantID: tenant.id, kind: .push,
                createdAt: at, expiresAt: at + timeout)
            challenge.userID = userID
            challenge.actionCode = tracked.actionCode
            challenge.idempotencyKey = tracked.idempotencyKey
            challenge.ipAddress = tracked.ipAddress
            challenge.userAgent = tracked.userAgent
            if let state = signIn.state {
                challenge.state = state
                challenge.answeredAt = at + 5_000
                challenge.answeredBy = push.id
                tracked.verificationMethod = .push
                tracked.stateUpdatedAt = at + 5_000
                if state == .approved { tracked.validatedAt = at + 6_000 }
            }
            batch.actions.append(tracked)
            batch.challenges.append(challenge)
        }

        if qrCode {
            let device = try credential(index, .qrCode, userID: userID, at: start + 1_000)
            batch.authenticators.append(device)
            let at = start + 4 * 60_000
            var tracked = action(index, "qr", code: "signIn", userID: userID, state: .challengeSucceeded, at: at)
            tracked.verificationMethod = .device
            tracked.stateUpdatedAt = at + 5_000
            tracked.validatedAt = at + 6_000
            var challenge = Challenge(
                id: identifier(index, "challenge-qr", bytes: 32), tenantID: tenant.id, kind: .qrCode, createdAt: at,
                expiresAt: at + timeout)
            challenge.userID = userID
            challenge.actionCode = tracked.actionCode
            challenge.idempotencyKey = tracked.idempotencyKey
            challenge.state = .approved
            challenge.answeredAt = at + 5_000
            challenge.answeredBy = device.id
            batch.actions.append(tracked)
            batch.challenges.append(challenge)
        }

        if powerAuth {
            batch.activations.append(try activation(index, userID: userID, enrolmentKey: enrolment.idempotencyKey, at: start))
        }
    }

    private func action(
        _ index: Int, _ name: String, code: String, userID: String, state: ActionState, at: Int64
    ) -> Action {
        var action = Action(
            tenantID: tenant.id, userID: userID, actionCode: code, idempotencyKey: identifier(index, "action-\(name)"),
            state: state, now: at)
        action.ipAddress = "203.0.113.\(index % 250 + 1)"
        action.userAgent = "assent-seed"
        if code == "enrol" { action.scope = "add:authenticators" }
        return action
    }

    private func credential(
        _ index: Int, _ kind: SeededDevice.Credential, userID: String, at: Int64
    ) throws -> Authenticator {
        let key = try SeededDevice.privateKey(seed: seed, index: index, credential: kind)
        var authenticator = Authenticator(
            id: identifier(index, "credential-\(kind.rawValue)"), tenantID: tenant.id, userID: userID,
            verificationMethod: kind == .push ? .push : .device, createdAt: at)
        authenticator.publicKey = key.publicKey.spkiDER
        authenticator.verifiedAt = at
        authenticator.lastVerifiedAt = at + 60_000
        authenticator.deviceName = "Seeded device \(index)"
        authenticator.devicePlatform = index % 2 == 0 ? "IOS" : "ANDROID"
        authenticator.signatureScheme = tenant.settings.requireBoundSignature ? .bound : .compatible
        if kind == .push, let lease = tenant.settings.pushCredentialLifetimeSeconds {
            authenticator.expiresAt = now + Int64(lease) * 1000
        }
        return authenticator
    }

    private func activation(_ index: Int, userID: String, enrolmentKey: String, at: Int64) throws -> ActivationRecord {
        let deviceKey = try SeededDevice.privateKey(seed: seed, index: index, credential: .powerAuth).publicKey
        let id = identifier(index, "activation")
        let serverKey = P256.PrivateKey()
        let masterSecret = try PowerAuth.masterSecret(privateKey: serverKey, publicKey: deviceKey)
        return ActivationRecord(
            id: id, tenantID: tenant.id, userID: userID, name: "Seeded device \(index)", status: .active,
            devicePublicKey: deviceKey.x962Uncompressed, serverPublicKey: serverKey.publicKey.x962Uncompressed,
            sealedMasterSecret: try sealer.seal(masterSecret, context: ActivationService.masterSecretContext(id)),
            counterData: SecureRandom.bytes(16),
            fingerprint: PowerAuthFingerprint.compute(
                devicePublicKey: deviceKey, activationID: id, serverPublicKey: serverKey.publicKey),
            enrolmentKey: enrolmentKey, createdAt: at, updatedAt: at)
    }

    /// A lower-case UUID (or, for `bytes` 32, 64 hex digits like a challenge id) derived from the tenant, the seed,
    /// the user's index and what it names.
    private func identifier(_ index: Int, _ name: String, bytes: Int = 16) -> String {
        let digest = SHA256.hash(Array("assent-seed/\(tenant.id)/\(seed)/\(index)/\(name)".utf8))
        let hex = digest.prefix(bytes).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        guard bytes == 16 else { return hex }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
