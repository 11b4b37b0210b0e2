import Assent
import Foundation

/// What `assent device qr` remembers in the device home, in `qr.json` beside push's `device.json` (owner-only,
/// written atomically): where the QR credential is enrolled, and the challenge claimed last, so `approve` and
/// `decline` need no arguments.
struct DeviceQRState: Codable, Sendable, Equatable {
    /// The tenant the QR credential belongs to.
    var tenantId: String
    /// The server's base URL, including `/v1`.
    var baseURL: String
    /// The user the QR credential belongs to.
    var userId: String?
    /// The QR credential's ID.
    var credentialId: String?
    /// The challenge claimed last, with the context shown when it was claimed; cleared once answered.
    var lastClaim: ClaimedChallenge?
    /// When ``lastClaim`` was claimed (ISO-8601).
    var claimedAt: String?

    /// Where the SDK should talk, as push's ``DeviceHome/Enrolment`` spells it.
    var enrolment: DeviceHome.Enrolment {
        DeviceHome.Enrolment(tenantId: tenantId, baseURL: baseURL, userId: userId, credentialId: credentialId)
    }

    /// `qr.json` in `home`.
    static func path(in home: DeviceHome) -> String { (home.path as NSString).appendingPathComponent("qr.json") }

    /// The state in `home`, or nil when the device has no QR credential.
    static func load(from home: DeviceHome) throws -> DeviceQRState? {
        try home.readRecord(path(in: home), damaged: "run 'assent device qr remove' or delete it and enrol again")
    }

    /// The state in `home`, or a failure telling the user to enrol.
    static func required(in home: DeviceHome) throws -> DeviceQRState {
        guard let state = try load(from: home) else {
            throw CLIError.failure(
                "this device has no QR code credential (no \(path(in: home))); run 'assent device qr enrol' first",
                errorCode: AssentErrorCode.credentialNotFound)
        }
        return state
    }

    /// Writes the state to `home` atomically, owner-only.
    func save(to home: DeviceHome) throws {
        try home.writeRecord(self, to: Self.path(in: home))
    }

    /// Forgets the QR credential (push's enrolment is untouched).
    static func forget(in home: DeviceHome) throws {
        try home.removeRecord(path(in: home))
    }
}
