#if canImport(DeviceCheck)
import DeviceCheck
import Foundation

/// ``AppAttestService`` on `DCAppAttestService.shared`. It reads the shared service in each call rather than storing
/// it, so this value stays `Sendable` without claims about DeviceCheck's own types.
///
/// Apple-only (checked by reading; see docs/apple.md). Apple documentation of each API called:
/// - DCAppAttestService.shared, isSupported: https://developer.apple.com/documentation/devicecheck/dcappattestservice
/// - generateKey(completionHandler:) (its async form):
///   https://developer.apple.com/documentation/devicecheck/dcappattestservice/generatekey(completionhandler:)
/// - attestKey(_:clientDataHash:completionHandler:) (async form):
///   https://developer.apple.com/documentation/devicecheck/dcappattestservice/attestkey(_:clientdatahash:completionhandler:)
/// - generateAssertion(_:clientDataHash:completionHandler:) (async form):
///   https://developer.apple.com/documentation/devicecheck/dcappattestservice/generateassertion(_:clientdatahash:completionhandler:)
struct DeviceCheckAppAttestService: AppAttestService {
    var isSupported: Bool { DCAppAttestService.shared.isSupported }

    func generateKey() async throws -> String {
        try await DCAppAttestService.shared.generateKey()
    }

    func attestKey(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        Array(try await DCAppAttestService.shared.attestKey(keyId, clientDataHash: Data(clientDataHash)))
    }

    func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        Array(try await DCAppAttestService.shared.generateAssertion(keyId, clientDataHash: Data(clientDataHash)))
    }
}

#endif
