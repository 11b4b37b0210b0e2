// Stub of DeviceCheck's DCAppAttestService, from Apple's documentation pages (Linux typecheck only).
import Foundation
open class DCAppAttestService: NSObject {
    open class var shared: DCAppAttestService { DCAppAttestService() }
    open var isSupported: Bool { false }
    open func generateKey() async throws -> String { "" }
    open func attestKey(_ keyId: String, clientDataHash: Data) async throws -> Data { Data() }
    open func generateAssertion(_ keyId: String, clientDataHash: Data) async throws -> Data { Data() }
}
