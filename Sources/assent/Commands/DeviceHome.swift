import AssentServerCore
import Assent
import AssentWire
import Foundation

/// The directory that makes this machine a device (`--home`, default `~/.assent-device`, created `0700`):
/// `device.json` remembers the tenant and server from enrolment so later commands need neither, and `keys/` is the
/// ``FileKeyStore`` holding the private keys, sealed under `ASSENT_DEVICE_PASSPHRASE` when set, else under a random
/// key file beside them.
struct DeviceHome: Sendable {
    /// What enrolment remembers (`device.json`).
    struct Enrolment: Codable, Sendable, Equatable {
        /// The tenant the device belongs to.
        var tenantId: String
        /// The server's base URL, including `/v1`.
        var baseURL: String
        /// The user the push credential belongs to.
        var userId: String?
        /// The push credential's ID.
        var credentialId: String?
    }

    /// The directory.
    let path: String
    /// The passphrase sealing the keys, if any.
    let passphrase: String?

    /// `--home` and `--passphrase` / `ASSENT_DEVICE_PASSPHRASE`, which every device command takes.
    static let options: [Option] = [
        .optional("--home", "DIR", "the device's directory (default ~/.assent-device)", environment: "ASSENT_DEVICE_HOME"),
        .optional(
            "--passphrase", "P",
            "seals the private keys (PBKDF2 + AES-256-GCM); prefer the environment variable (flags show in ps). "
                + "Without one, keys are sealed under a random key file in the directory",
            environment: "ASSENT_DEVICE_PASSPHRASE"),
    ]

    /// The home the options name.
    init(_ invocation: Invocation) throws {
        let options = invocation.options
        if let home = try options.nonEmpty("--home") {
            path = (home as NSString).expandingTildeInPath
        } else {
            let user = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            path = (user as NSString).appendingPathComponent(".assent-device")
        }
        if options.isGiven("--passphrase") {
            Output.warning("--passphrase is visible to other users of this machine (ps, /proc); prefer ASSENT_DEVICE_PASSPHRASE")
        }
        passphrase = options.string("--passphrase")
    }

    private var enrolmentPath: String { (path as NSString).appendingPathComponent("device.json") }

    /// The key store in `keys/`.
    var keyStore: FileKeyStore {
        FileKeyStore(directory: (path as NSString).appendingPathComponent("keys"), passphrase: passphrase)
    }

    /// What enrolment remembered, or a failure telling the user to enrol.
    func enrolment() throws -> Enrolment {
        guard let enrolment = try existingEnrolment() else {
            throw CLIError.failure(
                "this device is not enrolled (no \(enrolmentPath)); run 'assent device push enrol' first",
                errorCode: AssentErrorCode.credentialNotFound)
        }
        return enrolment
    }

    /// What enrolment remembered, or nil when the device is not enrolled.
    func existingEnrolment() throws -> Enrolment? {
        try readRecord(enrolmentPath, damaged: "remove it and enrol again")
    }

    /// The JSON record at `path` in this home: nil when the home or the file is missing; a file that does not decode
    /// fails as `corrupted` with `damaged` as the advice.
    func readRecord<T: Decodable>(_ path: String, damaged: String) throws -> T? {
        let bytes: [UInt8]?
        do {
            guard try SecureFile.prepareDirectory(self.path, create: false) else { return nil }
            bytes = try SecureFile.read(path)
        } catch {
            throw CLIError.failure(ErrorText.describe(error), errorCode: AssentErrorCode.keyStoreError)
        }
        guard let bytes else { return nil }
        guard let value = try? JSONDecoder().decode(T.self, from: Data(bytes)) else {
            throw CLIError.failure("\(path) is damaged; \(damaged)", errorCode: "corrupted")
        }
        return value
    }

    /// Writes a JSON record to `path` in this home, atomically and owner-only (creating the home when missing).
    func writeRecord<T: Encodable>(_ value: T, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try SecureFile.prepareDirectory(self.path, create: true)
            try SecureFile.write(Array(try encoder.encode(value)) + [0x0A], to: path)
        } catch {
            throw CLIError.failure("cannot save \(path): \(ErrorText.describe(error))", errorCode: AssentErrorCode.keyStoreError)
        }
    }

    /// Removes the record at `path` (nothing when it is not there).
    func removeRecord(_ path: String) throws {
        do {
            try SecureFile.remove(path)
        } catch {
            throw CLIError.failure("cannot remove \(path): \(ErrorText.describe(error))", errorCode: AssentErrorCode.keyStoreError)
        }
    }

    /// Creates the directory (`0700`) or checks that only its owner can use it, before anything is sent anywhere.
    func prepare() throws {
        do {
            try SecureFile.prepareDirectory(path, create: true)
        } catch {
            throw CLIError.failure(ErrorText.describe(error), errorCode: AssentErrorCode.keyStoreError)
        }
    }

    /// Writes `device.json` atomically, owner-only.
    func save(_ enrolment: Enrolment) throws {
        try writeRecord(enrolment, to: enrolmentPath)
    }

    /// Forgets the enrolment.
    func forget() throws {
        try removeRecord(enrolmentPath)
    }

    /// The options every `enrol` takes besides its token: key policy and how the device presents itself.
    static let enrolOptions: [Option] = [
        .flag("--user-presence", "record that every use of the key needs the user's presence (iOS style)"),
        .flag("--user-authentication-required",
              "Android style: every use of the key needs a user authentication at most --timeout seconds old"),
        .optional("--timeout", "SECONDS", "with --user-authentication-required: how long one authentication keeps the "
            + "key usable (default 0: every use authenticates)"),
        .optional("--authorization-type", "TYPE", "with --user-authentication-required: BIOMETRIC, DEVICE_CREDENTIAL or "
            + "BIOMETRIC_OR_DEVICE_CREDENTIAL (default), or Android's mask 0-3"),
        .optional("--device-name", "NAME", "the name shown for this device (default: the host name)"),
        .optional("--platform", "P", "the platform sent to the server: ios, android, linux, ... (default linux)"),
    ]

    /// `--url` / `ASSENT_URL`, the server a device enrols with; `required` where nothing the device remembers can stand
    /// in for it.
    static func urlOption(required: Bool) -> Option {
        Option(
            name: "--url", valueName: "BASE", help: "assentd's base URL, e.g. http://127.0.0.1:8420 (/v1 is appended)",
            isRequired: required, environment: "ASSENT_URL")
    }

    /// `--tenant` / `ASSENT_TENANT`, the tenant a device enrols with; `required` as for ``urlOption(required:)``.
    static func tenantOption(required: Bool) -> Option {
        Option(name: "--tenant", valueName: "ID", help: "the tenant ID", isRequired: required, environment: "ASSENT_TENANT")
    }

    /// The key policy the enrol options ask for: iOS style (`--user-presence`) or Android style
    /// (`--user-authentication-required` with `--timeout` and `--authorization-type`), as the SDK's `addCredential`
    /// takes it.
    static func keyPolicy(_ options: ParsedOptions) throws -> KeyAccessPolicy {
        var policy = KeyAccessPolicy(userPresenceRequired: options.flag("--user-presence"))
        let android = options.flag("--user-authentication-required")
        guard android else {
            for option in ["--timeout", "--authorization-type"] where options.isGiven(option) {
                throw CLIError.usage("\(option) needs --user-authentication-required")
            }
            return policy
        }
        policy.userAuthenticationRequired = true
        if let text = try options.nonEmpty("--timeout") {
            guard let seconds = Int(text), seconds >= 0, seconds <= 86_400 else {
                throw CLIError.usage("--timeout must be 0 to 86400 seconds, got '\(text)'")
            }
            policy.timeout = seconds
        }
        if let text = try options.nonEmpty("--authorization-type") {
            guard let type = AuthorizationType(rawValue: text.uppercased()) ?? Int(text).flatMap(AuthorizationType.init(androidValue:))
            else {
                throw CLIError.usage(
                    "--authorization-type must be BIOMETRIC, DEVICE_CREDENTIAL, BIOMETRIC_OR_DEVICE_CREDENTIAL or 0-3, got '\(text)'")
            }
            policy.authorizationType = type
        }
        return policy
    }

    /// This device as `--device-name` and `--platform` present it.
    static func device(_ options: ParsedOptions) throws -> DeviceInfo {
        var device = DeviceInfo.current
        if let name = try options.nonEmpty("--device-name") { device.name = name }
        if let platform = try options.nonEmpty("--platform") { device.platform = platform }
        return device
    }

    /// Reports a `remove` whose key and enrolment this device has already forgotten: a server that no longer knew the
    /// credential is a warning, any other refusal a failure; `{"removed": ...}` says whether the server removed it.
    static func reportRemoval(
        _ response: AssentResponse<Bool>, _ invocation: Invocation, credential: String, key: String
    ) throws {
        if response.errorCode == AssentErrorCode.credentialNotFound {
            Output.warning("there was no \(key) on this device; forgot the enrolment")
        } else if response.isError {
            _ = try response.value("the server did not remove the credential (the key was deleted from this device anyway)")
        }
        try invocation.output.result(["removed": response.data == true]) {
            "Removed the \(credential)" + (response.data == true ? "." : " from this device.")
        }
    }

    /// The SDK for `enrolment`, over this home's key store, with `attester` when an enrolment attests its key.
    func sdk(_ enrolment: Enrolment, device: DeviceInfo = .current, attester: (any Attester)? = nil) -> Assent {
        Assent(tenantID: enrolment.tenantId, baseURL: enrolment.baseURL, keyStore: keyStore,
               transport: URLSessionTransport(), clock: .system, device: device, attester: attester)
    }

    /// `--url` as the SDK's base URL: `/v1` appended unless already there; only http(s) with a host.
    static func sdkBaseURL(_ text: String) throws -> String {
        var base = text.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        if !base.hasSuffix(Endpoint.version) { base += Endpoint.version }
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else { throw CLIError.usage("--url must be an http(s) base URL such as http://127.0.0.1:8420, got '\(text)'") }
        return base
    }
}
