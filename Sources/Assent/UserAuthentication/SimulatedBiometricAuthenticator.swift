import AssentCrypto
import AssentSync

/// **A simulated biometric sensor — for demos and tests, never a security boundary.** It performs no biometric check
/// at all: no sensor is read and nobody is recognised; it answers "recognised" whenever it is asked, unless its
/// state says otherwise. An app must give the SDK a real ``UserAuthenticator`` (the platform's biometrics) instead.
/// The state is driven by code (or the CLI's `assent device biometry simulate`): the enrolled set changes, lockout,
/// the next attempts fail or are cancelled, prompts are held open. It counts prompts so tests can tell whether one
/// was shown.
///
/// Its ``enrolmentFingerprint()`` changes whenever the enrolled set changes, as a real platform's does.
public final class SimulatedBiometricAuthenticator: UserAuthenticator {
    /// The simulated sensor's state, ``Codable`` so a tool can keep it between runs.
    public struct State: Sendable, Hashable, Codable {
        /// The sensor's kind; ``BiometryType/none`` simulates a device without one.
        public var biometryType: BiometryType
        /// The enrolled fingers or faces, by name; empty means not enrolled.
        public var enrolled: [String]
        /// Locked after too many failures.
        public var isLockedOut: Bool
        /// Bumped on every change of ``enrolled``; part of the enrolment fingerprint.
        public var enrolmentGeneration: Int
        /// Outcomes for the next prompts, consumed in order; empty means "recognised".
        public var nextOutcomes: [Outcome]
        /// Whether a device credential may stand in when a key allows it (the prompt's "use passcode").
        public var isDeviceCredentialAvailable: Bool

        /// A sensor of `biometryType` with `enrolled` names.
        public init(
            biometryType: BiometryType = .fingerprint, enrolled: [String] = ["finger-1"], isLockedOut: Bool = false,
            enrolmentGeneration: Int = 0, nextOutcomes: [Outcome] = [], isDeviceCredentialAvailable: Bool = false
        ) {
            self.biometryType = biometryType
            self.enrolled = enrolled
            self.isLockedOut = isLockedOut
            self.enrolmentGeneration = enrolmentGeneration
            self.nextOutcomes = nextOutcomes
            self.isDeviceCredentialAvailable = isDeviceCredentialAvailable
        }
    }

    /// What a simulated prompt answers.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The user is recognised.
        case success
        /// The user is not recognised.
        case fail
        /// The prompt is dismissed.
        case cancel
    }

    private struct Inner {
        var state: State
        var prompts = 0
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let inner: AssentLock<Inner>

    /// A sensor in `state` (by default: a fingerprint reader with one finger enrolled).
    public init(state: State = State()) {
        inner = AssentLock(Inner(state: state))
    }

    /// The current state (to save it, or to inspect it in a test).
    public var state: State { inner.withLock { $0.state } }

    /// How many prompts were shown.
    public var promptCount: Int { inner.withLock { $0.prompts } }

    /// Enrols another finger or face (a change of the enrolled set).
    public func enrol(_ name: String) {
        inner.withLock {
            $0.state.enrolled.append(name)
            $0.state.enrolmentGeneration += 1
        }
    }

    /// Removes every enrolment named `name` (a change of the enrolled set).
    public func unenrol(_ name: String) {
        inner.withLock {
            $0.state.enrolled.removeAll { $0 == name }
            $0.state.enrolmentGeneration += 1
        }
    }

    /// Locks or unlocks the sensor.
    public func setLockedOut(_ locked: Bool) { inner.withLock { $0.state.isLockedOut = locked } }

    /// Queues the outcome of the next prompt.
    public func queue(_ outcome: Outcome) { inner.withLock { $0.state.nextOutcomes.append(outcome) } }

    /// While holding, prompts stay open (the user has not yet touched the sensor) until ``releasePrompts()``.
    public func holdPrompts() { inner.withLock { $0.holding = true } }

    /// Lets every held prompt finish and stops holding.
    public func releasePrompts() {
        let waiting = inner.withLock { inner -> [CheckedContinuation<Void, Never>] in
            inner.holding = false
            let held = inner.held
            inner.held = []
            return held
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many prompts are held open now.
    public var heldPromptCount: Int { inner.withLock { $0.held.count } }

    // MARK: UserAuthenticator

    /// The simulated sensor's status.
    public func status() async -> UserAuthenticatorStatus {
        let state = self.state
        let system: BiometricSystemStatus
        if state.biometryType == .none {
            system = .notSupported
        } else if state.isLockedOut {
            system = .lockout
        } else if state.enrolled.isEmpty {
            system = .notEnrolled
        } else {
            system = .available
        }
        return UserAuthenticatorStatus(
            systemStatus: system, biometryType: state.biometryType,
            isDeviceCredentialAvailable: state.isDeviceCredentialAvailable)
    }

    /// Counts a prompt, waits while prompts are held, then answers the next queued outcome (recognised by default).
    public func authenticate(prompt: AuthenticationPrompt, allowing: AuthorizationType) async throws(UserAuthenticationError)
        -> AuthenticationMethod
    {
        let current = await status()
        let biometricAllowed = allowing.allows(.biometric)
        if !biometricAllowed || current.systemStatus != .available {
            if allowing.allows(.deviceCredential), current.isDeviceCredentialAvailable {
                inner.withLock { $0.prompts += 1 }
                return .deviceCredential
            }
            switch current.systemStatus {
            case .lockout: throw UserAuthenticationError(.lockout, "simulated biometrics are locked out")
            case .notEnrolled: throw UserAuthenticationError(.notEnrolled, "no simulated biometrics are enrolled")
            default: throw UserAuthenticationError(.notAvailable, "no allowed authentication method is available")
            }
        }
        let mustWait = inner.withLock {
            $0.prompts += 1
            return $0.holding
        }
        if mustWait {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = inner.withLock {
                    guard $0.holding else { return true }
                    $0.held.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        let outcome = inner.withLock { $0.state.nextOutcomes.isEmpty ? .success : $0.state.nextOutcomes.removeFirst() }
        switch outcome {
        case .success: return .biometric
        case .fail: throw UserAuthenticationError(.failed, "simulated biometrics did not recognise the user")
        case .cancel: throw UserAuthenticationError(.canceled, "the simulated prompt was cancelled")
        }
    }

    /// SHA-256 (base64) of the sensor type, the sorted enrolled names and the enrolment generation; nil when nothing is
    /// enrolled.
    public func enrolmentFingerprint() async -> String? {
        let state = self.state
        guard state.biometryType != .none, !state.enrolled.isEmpty else { return nil }
        let text = "simulated|\(state.biometryType.rawValue)|\(state.enrolled.sorted().joined(separator: ","))|\(state.enrolmentGeneration)"
        return Base64.encode(SHA256.hash(Array(text.utf8)))
    }
}
