import Assent
import AssentCrypto
import Testing

/// How LocalAuthentication's answers become the SDK's statuses, methods and errors on Apple platforms (the adapter only
/// passes `LAContext`'s answers through these rules).
@Suite struct LocalAuthenticationMappingTests {
    typealias Mapping = LocalAuthenticationMapping
    typealias Code = LocalAuthenticationMapping.ErrorCode

    @Test func `a biometric-only prompt evaluates the biometrics policy, anything else the owner policy`() {
        #expect(Mapping.policy(allowing: .biometric) == .biometrics)
        #expect(Mapping.policy(allowing: .deviceCredential) == .ownerAuthentication)
        #expect(Mapping.policy(allowing: .biometricOrDeviceCredential) == .ownerAuthentication)
        #expect(Mapping.method(after: .biometrics) == .biometric)
        // The owner policy may have used the passcode: the weaker method is reported.
        #expect(Mapping.method(after: .ownerAuthentication) == .deviceCredential)
        for allowing in AuthorizationType.allCases {
            #expect(allowing.allows(Mapping.method(after: Mapping.policy(allowing: allowing))), "\(allowing)")
        }
    }

    @Test func `the system status follows canEvaluatePolicy and its error`() {
        #expect(Mapping.systemStatus(canEvaluate: true, errorCode: nil, biometryType: .face) == .available)
        #expect(Mapping.systemStatus(canEvaluate: false, errorCode: Code.biometryNotEnrolled, biometryType: .face) == .notEnrolled)
        #expect(Mapping.systemStatus(canEvaluate: false, errorCode: Code.biometryLockout, biometryType: .fingerprint) == .lockout)
        #expect(Mapping.systemStatus(canEvaluate: false, errorCode: Code.biometryNotAvailable, biometryType: .none) == .notSupported)
        #expect(Mapping.systemStatus(canEvaluate: false, errorCode: Code.biometryNotAvailable, biometryType: .face) == .notAvailable)
        #expect(Mapping.systemStatus(canEvaluate: false, errorCode: nil, biometryType: .none) == .notSupported)
    }

    @Test func `evaluatePolicy errors become the SDK's user authentication errors`() {
        let cases: [(Int?, UserAuthenticationError.Code)] = [
            (Code.authenticationFailed, .failed),
            (Code.userCancel, .canceled), (Code.systemCancel, .canceled), (Code.appCancel, .canceled), (Code.userFallback, .canceled),
            (Code.biometryLockout, .lockout),
            (Code.biometryNotEnrolled, .notEnrolled), (Code.passcodeNotSet, .notEnrolled),
            (Code.biometryNotAvailable, .notAvailable), (Code.notInteractive, .notAvailable), (nil, .notAvailable),
        ]
        for (code, expected) in cases {
            #expect(Mapping.error(code: code, description: "x").code == expected, "\(String(describing: code))")
        }
    }

    @Test func `the prompt's message is the reason shown, never empty`() {
        #expect(Mapping.localizedReason(AuthenticationPrompt(title: "Add biometry", message: "Allow biometry factor")) == "Allow biometry factor")
        #expect(Mapping.localizedReason(AuthenticationPrompt(title: "t", message: "")) == AuthenticationPrompt.default.message)
    }

    @Test func `the enrolment fingerprint changes with the biometric domain state and is nil without one`() {
        let before = Mapping.enrolmentFingerprint(domainState: [1, 2, 3])
        #expect(before != nil)
        #expect(Mapping.enrolmentFingerprint(domainState: [1, 2, 3]) == before)
        #expect(Mapping.enrolmentFingerprint(domainState: [1, 2, 4]) != before)
        #expect(Mapping.enrolmentFingerprint(domainState: nil) == nil)
        #expect(Mapping.enrolmentFingerprint(domainState: []) == nil)
    }
}
