import Assent
import Foundation

/// What `assent device activate` remembers in the device home (`powerauth.json`, owner-only, written atomically):
/// the pinned master public key and the biometry configuration; and the **simulated** biometric sensor's state
/// (`biometry-simulated.json`), so `assent device biometry simulate` can change it between commands. The activation's
/// keys and counter live in the home's key store (`keys/`), sealed like the credential keys.
struct DevicePowerAuthState: Codable, Sendable, Equatable {
    /// The tenant's PowerAuth master public key (Base64 SEC1), pinned at activation.
    var masterPublicKey: String
    /// Whether a change of the (simulated) enrolled biometrics invalidates the biometry factor.
    var invalidateBiometricFactorAfterChange: Bool

    static func path(in home: DeviceHome) -> String { (home.path as NSString).appendingPathComponent("powerauth.json") }
    static func sensorPath(in home: DeviceHome) -> String {
        (home.path as NSString).appendingPathComponent("biometry-simulated.json")
    }

    /// The state in `home`, or nil before activation.
    static func load(from home: DeviceHome) throws -> DevicePowerAuthState? {
        try read(path(in: home), home: home)
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
        try Self.write(self, to: Self.path(in: home), home: home)
    }

    /// Forgets the state.
    static func forget(in home: DeviceHome) throws {
        do {
            try SecureFile.remove(path(in: home))
        } catch {
            throw CLIError.failure("cannot remove \(path(in: home)): \(error)", errorCode: AssentErrorCode.keyStoreError)
        }
    }

    /// The simulated sensor as last saved (a fingerprint reader with one finger enrolled at first).
    static func sensor(in home: DeviceHome) throws -> SimulatedBiometricAuthenticator {
        let state: SimulatedBiometricAuthenticator.State? = try read(sensorPath(in: home), home: home)
        return SimulatedBiometricAuthenticator(state: state ?? .init())
    }

    /// Saves the simulated sensor's state (queued outcomes consumed, enrolment changes).
    static func save(_ sensor: SimulatedBiometricAuthenticator, in home: DeviceHome) throws {
        try write(sensor.state, to: sensorPath(in: home), home: home)
    }

    /// The SDK for `enrolment` with PowerAuth configured from this state and the simulated sensor.
    func sdk(_ enrolment: DeviceHome.Enrolment, home: DeviceHome, sensor: SimulatedBiometricAuthenticator) -> Assent {
        Self.sdk(enrolment, home: home, sensor: sensor, configuration: PowerAuthConfiguration(
            masterPublicKey: masterPublicKey, invalidateBiometricFactorAfterChange: invalidateBiometricFactorAfterChange))
    }

    static func sdk(
        _ enrolment: DeviceHome.Enrolment, home: DeviceHome, sensor: SimulatedBiometricAuthenticator,
        configuration: PowerAuthConfiguration
    ) -> Assent {
        Assent(tenantID: enrolment.tenantId, baseURL: enrolment.baseURL, keyStore: home.keyStore,
               transport: URLSessionTransport(), clock: .system, userAuthenticator: sensor, powerAuth: configuration)
    }

    private static func read<T: Decodable>(_ path: String, home: DeviceHome) throws -> T? {
        let bytes: [UInt8]?
        do {
            guard try SecureFile.prepareDirectory(home.path, create: false) else { return nil }
            bytes = try SecureFile.read(path)
        } catch {
            throw CLIError.failure("\(error)", errorCode: AssentErrorCode.keyStoreError)
        }
        guard let bytes else { return nil }
        guard let value = try? JSONDecoder().decode(T.self, from: Data(bytes)) else {
            throw CLIError.failure("\(path) is damaged; delete it and activate again", errorCode: "corrupted")
        }
        return value
    }

    private static func write<T: Encodable>(_ value: T, to path: String, home: DeviceHome) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try SecureFile.prepareDirectory(home.path, create: true)
            try SecureFile.write(Array(try encoder.encode(value)) + [0x0A], to: path)
        } catch {
            throw CLIError.failure("cannot save \(path): \(error)", errorCode: AssentErrorCode.keyStoreError)
        }
    }
}
