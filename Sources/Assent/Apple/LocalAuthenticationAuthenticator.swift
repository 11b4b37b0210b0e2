#if canImport(LocalAuthentication)
import AssentSync
import Foundation
import LocalAuthentication

/// The ``UserAuthenticator`` of iOS and macOS: Face ID, Touch ID, Optic ID and the device passcode through
/// `LAContext`. Every decision (policy, status, errors, fingerprint) is made by ``LocalAuthenticationMapping``
/// (shared, tested on Linux); this class only asks LocalAuthentication. Face ID needs `NSFaceIDUsageDescription` in
/// the app's Info.plist (docs/apple.md).
///
/// The context of the last successful prompt is kept so that a Secure Enclave key with a user-presence access control
/// (``KeychainKeyStore``) signs with it instead of prompting a second time.
///
/// Apple-only (checked by reading; see docs/apple.md). Apple documentation of each API called:
/// - LAContext: https://developer.apple.com/documentation/localauthentication/lacontext
/// - canEvaluatePolicy(_:error:): https://developer.apple.com/documentation/localauthentication/lacontext/canevaluatepolicy(_:error:)
/// - evaluatePolicy(_:localizedReason:reply:) (its async form):
///   https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)
/// - invalidate(): https://developer.apple.com/documentation/localauthentication/lacontext/invalidate()
/// - biometryType: https://developer.apple.com/documentation/localauthentication/lacontext/biometrytype
/// - domainState.biometry.stateHash (iOS 18, macOS 15; replaces evaluatedPolicyDomainState):
///   https://developer.apple.com/documentation/localauthentication/ladomainstatebiometry
/// - LAPolicy.deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthentication:
///   https://developer.apple.com/documentation/localauthentication/lapolicy
/// - LAError.errorDomain, LAError.Code: https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code
public final class LocalAuthenticationAuthenticator: UserAuthenticator {
    /// Holds the last evaluated context. `@unchecked Sendable`: the SDK runs one prompt and one signature at a time
    /// (``UserAuthenticationGate``), so the context is never used from two tasks at once.
    private final class ContextBox: @unchecked Sendable {
        let context: LAContext
        init(_ context: LAContext) { self.context = context }
    }

    private let lastContext = AssentLock<ContextBox?>(nil)

    /// An authenticator over the system's LocalAuthentication.
    public init() {}

    /// The context of the last successful prompt, for keys that need the user (nil before any).
    func evaluatedContext() -> LAContext? {
        lastContext.withLock { $0 }?.context
    }

    public func status() async -> UserAuthenticatorStatus {
        let context = LAContext()
        var error: NSError?
        let canEvaluate = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
        let type: BiometryType = switch context.biometryType {
        case .faceID: .face
        case .touchID: .fingerprint
        case .opticID: .iris
        case .none: .none
        @unknown default: .generic
        }
        let code = error?.domain == LAError.errorDomain ? error?.code : nil
        return UserAuthenticatorStatus(
            systemStatus: LocalAuthenticationMapping.systemStatus(canEvaluate: canEvaluate, errorCode: code, biometryType: type),
            biometryType: type,
            isDeviceCredentialAvailable: context.canEvaluatePolicy(.deviceOwnerAuthentication, error: nil))
    }

    public func authenticate(prompt: AuthenticationPrompt, allowing: AuthorizationType) async throws(UserAuthenticationError)
        -> AuthenticationMethod
    {
        let policy = LocalAuthenticationMapping.policy(allowing: allowing)
        let context = LAContext()
        do {
            _ = try await context.evaluatePolicy(
                policy == .biometrics ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication,
                localizedReason: LocalAuthenticationMapping.localizedReason(prompt))
        } catch {
            let failure = error as NSError
            throw LocalAuthenticationMapping.error(
                code: failure.domain == LAError.errorDomain ? failure.code : nil, description: failure.localizedDescription)
        }
        // The previous context is invalidated, so no older authentication can be reused by a key.
        let box = ContextBox(context)
        let previous = lastContext.withLock { last -> ContextBox? in
            defer { last = box }
            return last
        }
        previous?.context.invalidate()
        return LocalAuthenticationMapping.method(after: policy)
    }

    public func enrolmentFingerprint() async -> String? {
        let context = LAContext()
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil) else { return nil }
        return LocalAuthenticationMapping.enrolmentFingerprint(domainState: context.domainState.biometry.stateHash.map { Array($0) })
    }
}

#endif
