import AssentCrypto

/// How LocalAuthentication's answers become the SDK's types: shared code, so Linux tests cover every rule, while the
/// Apple-only `LocalAuthenticationAuthenticator` only calls `LAContext` and passes its answers through here.
///
/// Error codes are `LAError.Code` raw values as `LAError.h` defines them
/// (https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code).
package enum LocalAuthenticationMapping {
    /// The `LAPolicy` to evaluate.
    package enum Policy: Sendable, Hashable {
        /// `.deviceOwnerAuthenticationWithBiometrics`: Face ID, Touch ID or Optic ID only.
        case biometrics
        /// `.deviceOwnerAuthentication`: biometrics, falling back to the device passcode.
        case ownerAuthentication
    }

    /// `LAError.Code` raw values the mapping distinguishes.
    package enum ErrorCode {
        package static let authenticationFailed = -1
        package static let userCancel = -2
        package static let userFallback = -3
        package static let systemCancel = -4
        package static let passcodeNotSet = -5
        package static let biometryNotAvailable = -6
        package static let biometryNotEnrolled = -7
        package static let biometryLockout = -8
        package static let appCancel = -9
        package static let notInteractive = -1004
    }

    /// The policy for a prompt that `allowing` permits. iOS has no passcode-only policy, so a device-credential prompt
    /// evaluates `.deviceOwnerAuthentication` too.
    package static func policy(allowing: AuthorizationType) -> Policy {
        allowing == .biometric ? .biometrics : .ownerAuthentication
    }

    /// The method to report after `policy` succeeded. LocalAuthentication does not say whether the user chose the
    /// passcode, so `.ownerAuthentication` reports the weaker ``AuthenticationMethod/deviceCredential``: a later
    /// biometrics-only key is never satisfied by it.
    package static func method(after policy: Policy) -> AuthenticationMethod {
        policy == .biometrics ? .biometric : .deviceCredential
    }

    /// biometry-setup.md's system status from `canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)` and
    /// the `LAError` code it gave.
    package static func systemStatus(canEvaluate: Bool, errorCode: Int?, biometryType: BiometryType) -> BiometricSystemStatus {
        if canEvaluate { return .available }
        switch errorCode {
        case ErrorCode.biometryNotEnrolled: return .notEnrolled
        case ErrorCode.biometryLockout: return .lockout
        case ErrorCode.biometryNotAvailable: return biometryType == .none ? .notSupported : .notAvailable
        default: return biometryType == .none ? .notSupported : .notAvailable
        }
    }

    /// The ``UserAuthenticationError`` for a failed `evaluatePolicy`.
    package static func error(code: Int?, description: String) -> UserAuthenticationError {
        switch code {
        case ErrorCode.authenticationFailed:
            UserAuthenticationError(.failed, "The user could not be authenticated: \(description)")
        case ErrorCode.userCancel, ErrorCode.systemCancel, ErrorCode.appCancel, ErrorCode.userFallback:
            UserAuthenticationError(.canceled, "The authentication prompt was canceled: \(description)")
        case ErrorCode.biometryLockout:
            UserAuthenticationError(.lockout, "Biometrics are locked out: \(description)")
        case ErrorCode.biometryNotEnrolled, ErrorCode.passcodeNotSet:
            UserAuthenticationError(.notEnrolled, "No biometrics or passcode are set up: \(description)")
        default:
            UserAuthenticationError(.notAvailable, "User authentication is not available: \(description)")
        }
    }

    /// The `localizedReason` to show: the prompt's message (LocalAuthentication refuses an empty reason, and shows
    /// the app's name as the title, so ``AuthenticationPrompt/title`` is not shown on Apple platforms).
    package static func localizedReason(_ prompt: AuthenticationPrompt) -> String {
        prompt.message.isEmpty ? AuthenticationPrompt.default.message : prompt.message
    }

    /// The enrolment fingerprint for `domainState.biometry.stateHash` (formerly `evaluatedPolicyDomainState`) (nil without enrolled biometrics).
    package static func enrolmentFingerprint(domainState: [UInt8]?) -> String? {
        guard let domainState, !domainState.isEmpty else { return nil }
        return Base64.encode(SHA256.hash(domainState))
    }
}
