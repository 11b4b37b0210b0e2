// Stub of the LocalAuthentication API Assent calls, from Apple's documentation pages (Linux typecheck only).
import Foundation
public enum LAPolicy: Int, Sendable { case deviceOwnerAuthenticationWithBiometrics = 1, deviceOwnerAuthentication = 2 }
public enum LABiometryType: Int, Sendable { case none = 0, touchID = 1, faceID = 2, opticID = 4 }
public struct LAError: Error {
    public static var errorDomain: String { "com.apple.LocalAuthentication" }
    public enum Code: Int, Sendable { case authenticationFailed = -1 }
    public var code: Code
}
open class LADomainStateBiometry: NSObject { open var stateHash: Data? { nil } }
open class LADomainState: NSObject { open var biometry: LADomainStateBiometry { LADomainStateBiometry() } }
open class LAContext: NSObject {
    public override init() {}
    open func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool { false }
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { false }
    open var biometryType: LABiometryType { .none }
    open var domainState: LADomainState { LADomainState() }
    open func invalidate() {}
}
