import Assent
import AssentCrypto
import Foundation

/// `assent device activate|status|sign`: this device's PowerAuth activation and multi-factor request signatures,
/// through ``AssentPowerAuth``. Biometrics here are the SDK's **simulated** sensor (see `assent device biometry`).
enum DeviceActivationCommands {
    static let activate = Command.leaf(
        "activate", "activate this device for PowerAuth signatures (password/PIN knowledge factor)",
        details: """
            --token is a track token with scope add:authenticators. --master-public-key pins the tenant's PowerAuth
            master public key (assent admin tenant powerauth prints it): an activation not signed by it is refused.
            The password is asked for when neither --password nor ASSENT_DEVICE_PASSWORD is given; only the server
            can tell a wrong one. --url and --tenant are needed unless the device is already enrolled for push.
            """,
        options: DeviceHome.options + [
            DeviceHome.urlOption(required: false),
            DeviceHome.tenantOption(required: false),
            .required("--token", "T", "the track token (scope add:authenticators)"),
            .required("--master-public-key", "B64", "the tenant's PowerAuth master public key to pin",
                      environment: "ASSENT_MASTER_PUBLIC_KEY"),
            .optional("--name", "NAME", "the activation's name (default: the host name)"),
            DevicePassword.option,
            .flag("--keep-biometry-after-change",
                  "keep the biometry factor when the enrolled biometrics change (default: the platform's — iOS keeps "
                    + "it, Android and others invalidate it)"),
            .optional("--platform", "P", "the platform this device presents itself as: ios, android, linux, ... "
                + "(default linux); it decides the biometry defaults, as biometry-setup.md describes"),
            .flag("--no-biometric-prompt-at-setup",
                  "Android's authenticateOnBiometricKeySetup = false: adding the biometry factor does not prompt "
                    + "(iOS never prompts at setup)"),
        ]
    ) { invocation in
        let options = invocation.options
        let home = try DeviceHome(invocation)
        guard let token = try options.nonEmpty("--token") else { throw CLIError.usage("--token is required") }
        guard let masterKey = try options.nonEmpty("--master-public-key") else {
            throw CLIError.usage("--master-public-key is required")
        }
        guard let bytes = Base64.decodeStrict(masterKey), (try? P256.PublicKey(x962: bytes)) != nil else {
            throw CLIError.usage("--master-public-key must be Base64 of a 65-byte SEC1 P-256 public key")
        }
        var enrolment: DeviceHome.Enrolment
        let url = try options.nonEmpty("--url").map(DeviceHome.sdkBaseURL)
        let tenant = try options.nonEmpty("--tenant")
        if let existing = try home.existingEnrolment() {
            if let url, url != existing.baseURL { throw mismatch(existing) }
            if let tenant, tenant != existing.tenantId { throw mismatch(existing) }
            enrolment = existing
        } else {
            guard let url, let tenant else {
                throw CLIError.usage("--url and --tenant are required (this device is not enrolled yet)")
            }
            enrolment = DeviceHome.Enrolment(tenantId: tenant, baseURL: url)
        }
        let password = try DevicePassword.read(invocation, prompt: "Choose a password: ")
        try home.prepare()
        let state = DevicePowerAuthState(
            masterPublicKey: masterKey,
            invalidateBiometricFactorAfterChange: options.flag("--keep-biometry-after-change") ? false : nil,
            platform: try options.nonEmpty("--platform")?.lowercased(),
            authenticateOnBiometricKeySetup: options.flag("--no-biometric-prompt-at-setup") ? false : nil)
        let sensor = try DevicePowerAuthState.sensor(in: home)
        let assent = state.sdk(enrolment, home: home, sensor: sensor)
        let created = try await assent.powerAuth.createActivation(
            token: token, password: password, name: try options.nonEmpty("--name") ?? DeviceInfo.current.name
        ).value("activation failed")
        guard let created else { throw CLIError.failure("activation failed: the server returned nothing") }
        if try home.existingEnrolment() == nil { try home.save(enrolment) }
        try state.save(in: home)
        try invocation.output.result(ActivationJSON(created, enrolment)) {
            "Activated this device.\n" + Fields.render([
                ("activation", created.activationId),
                ("fingerprint", created.activationFingerprint),
                ("status", created.activationStatus),
                ("tenant", enrolment.tenantId),
                ("server", enrolment.baseURL),
            ])
        }
    }

    static let status = Command.leaf(
        "status", "fetch the activation's status and synchronize the signature counter",
        details: """
            Shows the state (ACTIVE, BLOCKED, ... or DEADLOCK when this device's counter is a whole look-ahead window
            ahead of the server's), failed attempts, and the biometry factor. Run it after a failed biometry add or
            remove, or after any refused signature, to resynchronize.
            """,
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let powerAuth = try DevicePowerAuthState.activatedSDK(in: home).assent.powerAuth
        guard let status = try await powerAuth.fetchActivationStatus().value("cannot fetch the activation status") else {
            throw CLIError.failure("the server returned no status")
        }
        let biometry = await powerAuth.getBiometricStatus()
        let json = StatusJSON(
            activationId: await powerAuth.activationIdentifier() ?? "", status: status,
            biometry: DeviceBiometryCommands.StatusJSON(biometry))
        try invocation.output.result(json) {
            Fields.render([
                ("activation", json.activationId),
                ("state", status.state.rawValue),
                ("failed attempts", "\(status.failCount) of \(status.maxFailCount) (\(status.remainingAttempts) left)"),
                ("counter", status.counterDistance == 0 ? "in step" : "\(status.counterDistance) ahead of the server"),
                ("sign soon", status.isSignatureCalculationRecommended ? "yes" : nil),
                ("biometry factor", biometry.isBiometricFactorConfigured ? "configured" : "not configured"),
                ("biometrics", "\(biometry.systemStatus.rawValue) \(biometry.biometryType.rawValue) (simulated)"),
            ])
        }
    }

    static let sign = Command.leaf(
        "sign", "print the X-PowerAuth-Authorization header for a request",
        details: """
            Signs METHOD, --uri-id and the body with the factors of --type (default possession_knowledge) and prints
            the header's value; with --json, {"key": "X-PowerAuth-Authorization", "value": ...}. For GET, --body is the
            query string (a=1&b=2), signed in canonical form. The counter advances whether or not the request is sent.
            Biometry uses the simulated sensor (assent device biometry).
            """,
        options: DeviceHome.options + [
            .optional("--method", "M", "the HTTP method (default POST)"),
            .required("--uri-id", "URI", "the endpoint's URI identifier, e.g. /pa/signature/validate or /payments"),
            .optional("--body", "TEXT", "the request body exactly as sent (default empty)"),
            .optional("--body-file", "PATH", "read the body from a file instead"),
            .optional("--type", "TYPE",
                      "possession | possession_knowledge | possession_biometry | possession_knowledge_biometry"),
            DevicePassword.option,
        ]
    ) { invocation in
        let options = invocation.options
        let home = try DeviceHome(invocation)
        let typeName = try options.nonEmpty("--type") ?? "possession_knowledge"
        guard let type = PowerAuthSignatureType(rawValue: typeName), type.factors.contains(.possession) else {
            throw CLIError.usage(
                "--type must be possession, possession_knowledge, possession_biometry or possession_knowledge_biometry")
        }
        guard let uriId = try options.nonEmpty("--uri-id") else { throw CLIError.usage("--uri-id is required") }
        let method = (try options.nonEmpty("--method") ?? "POST").uppercased()
        var body = Array((options.string("--body") ?? "").utf8)
        if let file = try options.nonEmpty("--body-file") {
            guard !options.isGiven("--body") else { throw CLIError.usage("give --body or --body-file, not both") }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError.failure("cannot read \(file)", errorCode: "not_found")
            }
            body = Array(data)
        }
        let (assent, sensor) = try DevicePowerAuthState.activatedSDK(in: home)
        let authentication = try DeviceFactor.authentication(
            type, invocation, prompt: AuthenticationPrompt(title: "Sign request", message: "\(method) \(uriId)"))
        let response = await assent.powerAuth
            .authenticationHeaderForRequestWithBody(authentication, method: method, uriId: uriId, bodyBytes: body)
        try DevicePowerAuthState.save(sensor, in: home)
        guard let header = try response.value("cannot sign the request") else {
            throw CLIError.failure("cannot sign the request")
        }
        try invocation.output.result(header) { header.value }
    }

    private static func mismatch(_ existing: DeviceHome.Enrolment) -> CLIError {
        CLIError.failure(
            "this device is enrolled with tenant \(existing.tenantId) at \(existing.baseURL); use another --home",
            errorCode: "already_enrolled")
    }

    /// `activate --json`.
    struct ActivationJSON: Encodable {
        var activationId: String
        var activationFingerprint: String
        var activationStatus: String
        var tenantId: String
        var baseURL: String

        init(_ created: CreatedActivation, _ enrolment: DeviceHome.Enrolment) {
            activationId = created.activationId
            activationFingerprint = created.activationFingerprint
            activationStatus = created.activationStatus
            tenantId = enrolment.tenantId
            baseURL = enrolment.baseURL
        }
    }

    /// `status --json`.
    struct StatusJSON: Encodable {
        var activationId: String
        var status: ActivationStatus
        var biometry: DeviceBiometryCommands.StatusJSON

        func encode(to encoder: any Encoder) throws {
            enum Key: String, CodingKey {
                case activationId, state, failCount, maxFailCount, remainingAttempts, counterDistance, lookAhead
                case isSignatureCalculationRecommended, biometry
            }
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(activationId, forKey: .activationId)
            try container.encode(status.state, forKey: .state)
            try container.encode(status.failCount, forKey: .failCount)
            try container.encode(status.maxFailCount, forKey: .maxFailCount)
            try container.encode(status.remainingAttempts, forKey: .remainingAttempts)
            try container.encode(status.counterDistance, forKey: .counterDistance)
            try container.encode(status.lookAhead, forKey: .lookAhead)
            try container.encode(status.isSignatureCalculationRecommended, forKey: .isSignatureCalculationRecommended)
            try container.encode(biometry, forKey: .biometry)
        }
    }
}
