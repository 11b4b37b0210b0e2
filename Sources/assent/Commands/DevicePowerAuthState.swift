import Assent
import Foundation

/// What `assent device activate` remembers in the device home (`powerauth.json`, owner-only, written atomically):
/// the pinned master public key and the biometry configuration; and the **simulated** biometric sensor's state
/// (`biometry-simulated.json`), so `assent device biometry simulate` can change it between commands. The activation's
/// keys and counter live in the home's key store (`keys/`), sealed like the credential keys.
struct DevicePowerAuthState: Codable, Sendable, Equatable {
    /// The tenant's PowerAuth master public key (Base64 SEC1), pinned at activation.
    var masterPublicKey: String
    /// Whether a change of the (simulated) enrolled biometrics invalidates the biometry factor; nil: the platform's
    /// default (iOS keeps it, Android and the rest invalidate it), as ``PowerAuthConfiguration`` has it.
    var invalidateBiometricFactorAfterChange: Bool?
    /// The platform the device presents itself as (`--platform`, default linux), which decides the defaults above and
    /// below as biometry-setup.md describes them. Nil in state written before the option existed.
    var platform: String?
    /// Android's `authenticateOnBiometricKeySetup`: whether adding the biometry factor prompts (never on iOS). Nil
    /// in state written before the option existed: true, the SDK's default.
    var authenticateOnBiometricKeySetup: Bool?

    static func path(in home: DeviceHome) -> String { (home.path as NSString).appendingPathComponent("powerauth.json") }
    static func sensorPath(in home: DeviceHome) -> String {
        (home.path as NSString).appendingPathComponent("biometry-simulated.json")
    }

    /// The state in `home`, or nil before activation.
    static func load(from home: DeviceHome) throws -> DevicePowerAuthState? {
        try home.readRecord(path(in: home), damaged: "delete it and activate again")
    }

    /// The state in `home`, or a failure telling the user to activate.
    static func required(in home: DeviceHome) throws -> DevicePowerAuthState {
        guard let state = try load(from: home) else {
            throw CLIError.failure(
                "this device has no activation; run 'assent device activate' first", errorCode: AssentErrorCode.missingActivation)
        }
        return state
    }

    /// Writes the state.
    func save(in home: DeviceHome) throws {
        try home.writeRecord(self, to: Self.path(in: home))
    }

    /// Forgets the state.
    static func forget(in home: DeviceHome) throws {
        try home.removeRecord(path(in: home))
    }

    /// The simulated sensor as last saved (a fingerprint reader with one finger enrolled at first).
    static func sensor(in home: DeviceHome) throws -> SimulatedBiometricAuthenticator {
        let state: SimulatedBiometricAuthenticator.State? = try home.readRecord(
            sensorPath(in: home), damaged: "delete it and activate again")
        return SimulatedBiometricAuthenticator(state: state ?? .init())
    }

    /// Saves the simulated sensor's state (queued outcomes consumed, enrolment changes).
    static func save(_ sensor: SimulatedBiometricAuthenticator, in home: DeviceHome) throws {
        try home.writeRecord(sensor.state, to: sensorPath(in: home))
    }

    /// The SDK for this home's enrolment with its activation and the simulated sensor (saved back by the caller when
    /// an authentication changed it), or a failure saying to enrol or activate first.
    static func activatedSDK(in home: DeviceHome) throws -> (assent: Assent, sensor: SimulatedBiometricAuthenticator) {
        let enrolment = try home.enrolment()
        let state = try required(in: home)
        let sensor = try sensor(in: home)
        return (state.sdk(enrolment, home: home, sensor: sensor), sensor)
    }

    /// The SDK for `enrolment` with PowerAuth configured from this state and the simulated sensor.
    func sdk(_ enrolment: DeviceHome.Enrolment, home: DeviceHome, sensor: SimulatedBiometricAuthenticator) -> Assent {
        Self.sdk(enrolment, home: home, sensor: sensor, platform: platform, configuration: PowerAuthConfiguration(
            masterPublicKey: masterPublicKey, invalidateBiometricFactorAfterChange: invalidateBiometricFactorAfterChange,
            authenticateOnBiometricKeySetup: authenticateOnBiometricKeySetup ?? true))
    }

    static func sdk(
        _ enrolment: DeviceHome.Enrolment, home: DeviceHome, sensor: SimulatedBiometricAuthenticator,
        platform: String? = nil, configuration: PowerAuthConfiguration
    ) -> Assent {
        var device = DeviceInfo.current
        if let platform { device.platform = platform }
        return Assent(tenantID: enrolment.tenantId, baseURL: enrolment.baseURL, keyStore: home.keyStore,
                      transport: URLSessionTransport(), clock: .system, device: device, userAuthenticator: sensor,
                      powerAuth: configuration)
    }
}
