import AssentSync

/// A signer for one answer to a challenge, from ``AssentPush/startSigning()`` or ``AssentQRCode/startSigning()``:
/// the analogue of Android's `CryptoObject`. When the credential's key requires user authentication, the signer is
/// unusable until ``authenticate(prompt:)`` succeeds; then ``AssentPush/updateChallenge(challengeId:approved:verificationCode:signer:)``
/// signs with it — once.
public final class CredentialSigner: Sendable {
    private enum Phase { case awaitingAuthentication, ready, used }

    let keyName: String
    let key: any SigningKey
    private let gate: UserAuthenticationGate
    private let phase: AssentLock<Phase>

    init(keyName: String, key: any SigningKey, gate: UserAuthenticationGate) {
        self.keyName = keyName
        self.key = key
        self.gate = gate
        self.phase = AssentLock(gate.isSatisfied(key.accessPolicy) ? .ready : .awaitingAuthentication)
    }

    /// Whether the key's policy asks the user before this signer may sign.
    public var requiresUserAuthentication: Bool { key.accessPolicy.requiresUserAuthentication }

    /// Whether the signer may sign now (authenticated, or no authentication needed, and not yet used).
    public var isReady: Bool { phase.withLock { $0 == .ready } }

    /// Shows the prompt (once) and makes the signer usable when the user authenticates.
    ///
    /// - Returns: `true` when ready; or `user_authentication_failed`, `user_authentication_canceled`,
    ///   `biometry_lockout`, `biometry_busy`, `signer_invalid` (already used).
    public func authenticate(prompt: AuthenticationPrompt = .default) async -> AssentResponse<Bool> {
        await .run { () async throws(ClientFailure) -> Bool? in
            switch phase.withLock({ $0 }) {
            case .used: throw .signerUsed
            case .ready: return true
            case .awaitingAuthentication: break
            }
            _ = try await gate.authenticate(prompt: prompt, allowing: key.accessPolicy.allowedMethods)
            phase.withLock { if $0 == .awaitingAuthentication { $0 = .ready } }
            return true
        }
    }

    /// The key for one signature, marking the signer used; fails when not ready or meant for another credential.
    func take(for keyName: String) throws(ClientFailure) -> any SigningKey {
        guard keyName == self.keyName else {
            throw ClientFailure("This signer belongs to another credential.", AssentErrorCode.signerInvalid)
        }
        let previous = phase.withLock { phase -> Phase in
            let previous = phase
            if previous == .ready { phase = .used }
            return previous
        }
        switch previous {
        case .ready: return key
        case .used: throw .signerUsed
        case .awaitingAuthentication:
            throw ClientFailure(
                "The user has not authenticated with this signer yet; call authenticate(prompt:) first.",
                AssentErrorCode.userAuthenticationRequired)
        }
    }
}

extension ClientFailure {
    static let signerUsed = ClientFailure("This signer was already used; call startSigning() again.", AssentErrorCode.signerInvalid)
}
