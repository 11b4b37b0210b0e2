import AssentSync

/// The SDK's one door to the ``UserAuthenticator``: runs at most one authentication at a time (a second, concurrent
/// one fails at once with `biometry_busy` instead of queueing a second prompt), remembers when the user last
/// authenticated by each method (by the injected clock), and decides whether a key's ``KeyAccessPolicy`` is satisfied
/// without a new prompt.
final class UserAuthenticationGate: Sendable {
    let authenticator: any UserAuthenticator
    let clock: AssentClock

    private struct State {
        var lastAuthenticated: [AuthenticationMethod: Int64] = [:]
        var busy = false
    }

    private let state = AssentLock(State())

    init(authenticator: any UserAuthenticator, clock: AssentClock) {
        self.authenticator = authenticator
        self.clock = clock
    }

    /// Shows one prompt; fails at once when another is showing.
    func authenticate(prompt: AuthenticationPrompt, allowing: AuthorizationType) async throws(ClientFailure)
        -> AuthenticationMethod
    {
        let acquired = state.withLock { state -> Bool in
            guard !state.busy else { return false }
            state.busy = true
            return true
        }
        guard acquired else {
            throw ClientFailure(
                "Another user authentication is in progress; only one may run at a time.", AssentErrorCode.biometryBusy)
        }
        defer { state.withLock { $0.busy = false } }
        let method: AuthenticationMethod
        do {
            method = try await authenticator.authenticate(prompt: prompt, allowing: allowing)
        } catch {
            throw ClientFailure("User authentication did not succeed: \(error.reason)", error.code.errorCode)
        }
        guard allowing.allows(method) else {
            throw ClientFailure(
                "The user authenticated by \(method.rawValue), which this key does not allow.",
                AssentErrorCode.userAuthenticationNotAvailable)
        }
        let now = clock.nowMilliseconds()
        state.withLock { $0.lastAuthenticated[method] = now }
        return method
    }

    /// Whether `policy` is satisfied now without a prompt: no authentication required, or an allowed method
    /// authenticated less than the policy's timeout ago.
    func isSatisfied(_ policy: KeyAccessPolicy) -> Bool {
        guard policy.requiresUserAuthentication else { return true }
        let validity = policy.validityMilliseconds
        guard validity > 0 else { return false }
        let now = clock.nowMilliseconds()
        let allowed = policy.allowedMethods
        return state.withLock { state in
            state.lastAuthenticated.contains { method, at in allowed.allows(method) && now >= at && now - at < validity }
        }
    }

    /// Returns when `policy` is satisfied, prompting when it is not yet.
    func authorize(_ policy: KeyAccessPolicy, prompt: AuthenticationPrompt) async throws(ClientFailure) {
        guard !isSatisfied(policy) else { return }
        _ = try await authenticate(prompt: prompt, allowing: policy.allowedMethods)
    }
}
