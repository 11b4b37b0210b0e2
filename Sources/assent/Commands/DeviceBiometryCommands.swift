import Assent
import Foundation

/// `assent device biometry ...`: the activation's biometry factor, with the SDK's **simulated** biometric sensor —
/// a stand-in for demos and tests that recognises whoever runs the command unless `simulate` says otherwise. It is
/// not a security boundary.
enum DeviceBiometryCommands {
    /// The `biometry` group.
    static let group = Command.group(
        "biometry", "the biometry factor (SIMULATED biometric sensor): status, add, remove, simulate",
        details: """
            This machine has no biometric sensor the SDK can use, so these commands use a clearly simulated one
            (state in biometry-simulated.json in the device home): it recognises the user unless
            'assent device biometry simulate' queues a failure, locks it out or changes the enrolled set.
            """,
        [status, add, remove, simulate])

    static let status = Command.leaf(
        "status", "show biometry on the (simulated) system and for this activation",
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let sensor = try DevicePowerAuthState.sensor(in: home)
        let biometry: BiometricStatus
        if let state = try DevicePowerAuthState.load(from: home), let enrolment = try home.existingEnrolment() {
            biometry = await state.sdk(enrolment, home: home, sensor: sensor).powerAuth.getBiometricStatus()
        } else {
            let system = await sensor.status()
            biometry = BiometricStatus(
                isAuthenticationWithBiometricsAvailable: false, biometryType: system.biometryType,
                systemStatus: system.systemStatus, isBiometricFactorConfigured: false)
        }
        let json = StatusJSON(biometry)
        try invocation.output.result(json) { describe(json) }
    }

    static let add = Command.leaf(
        "add", "add the biometry factor (needs the password: the server unlocks the vault)",
        details: """
            Asks the simulated sensor, then unlocks the vault with a possession_knowledge signature: a wrong password
            is a failed attempt on the server. After a failure, run 'assent device status' to resynchronize.
            """,
        options: DeviceHome.options + [DevicePassword.option]
    ) { invocation in
        let home = try DeviceHome(invocation)
        let (assent, sensor) = try DevicePowerAuthState.activatedSDK(in: home)
        let password = try DevicePassword.read(invocation)
        let response = await assent.powerAuth.addBiometryFactor(
            password: password, prompt: AuthenticationPrompt(title: "Add biometry", message: "Allow biometry factor"))
        try DevicePowerAuthState.save(sensor, in: home)
        _ = try response.value("cannot add the biometry factor")
        try invocation.output.result(["added": true]) { "Added the biometry factor (simulated sensor)." }
    }

    static let remove = Command.leaf(
        "remove", "remove the biometry factor from this device (no server call)",
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let removed = try await DevicePowerAuthState.activatedSDK(in: home).assent.powerAuth.removeBiometryFactor()
            .value("cannot remove the biometry factor") ?? false
        try invocation.output.result(["removed": removed]) {
            removed ? "Removed the biometry factor." : "There was no biometry factor to remove."
        }
    }

    static let simulate = Command.leaf(
        "simulate", "drive the SIMULATED sensor: enrolled set, lockout, outcome of the next prompts",
        options: DeviceHome.options + [
            .repeatable("--enrol", "NAME", "enrol a finger or face (a change of the enrolled set)"),
            .repeatable("--unenrol", "NAME", "remove an enrolled finger or face (a change of the enrolled set)"),
            .optional("--lockout", "on|off", "lock or unlock the sensor"),
            .repeatable("--next", "success|fail|cancel", "queue the outcome of the next prompt"),
            .optional("--type", "T", "fingerprint, face, iris, generic or none (no sensor)"),
        ]
    ) { invocation in
        let options = invocation.options
        let home = try DeviceHome(invocation)
        try home.prepare()
        var current = try DevicePowerAuthState.sensor(in: home).state
        if let type = try options.nonEmpty("--type") {
            guard let parsed = BiometryType(rawValue: type.uppercased()) else {
                throw CLIError.usage("--type must be fingerprint, face, iris, generic or none")
            }
            current.biometryType = parsed
        }
        if let lockout = try options.nonEmpty("--lockout") {
            guard ["on", "off"].contains(lockout) else { throw CLIError.usage("--lockout must be on or off") }
            current.isLockedOut = lockout == "on"
        }
        for outcome in options.strings("--next") {
            guard let parsed = SimulatedBiometricAuthenticator.Outcome(rawValue: outcome) else {
                throw CLIError.usage("--next must be success, fail or cancel")
            }
            current.nextOutcomes.append(parsed)
        }
        let sensor = SimulatedBiometricAuthenticator(state: current)
        for name in options.strings("--enrol") { sensor.enrol(name) }
        for name in options.strings("--unenrol") { sensor.unenrol(name) }
        try DevicePowerAuthState.save(sensor, in: home)
        let state = sensor.state
        try invocation.output.result(state) {
            "Simulated sensor (demo/test only):\n" + Fields.render([
                ("type", state.biometryType.rawValue),
                ("enrolled", state.enrolled.isEmpty ? "nothing" : state.enrolled.joined(separator: ", ")),
                ("locked out", state.isLockedOut ? "yes" : "no"),
                ("next prompts", state.nextOutcomes.isEmpty ? nil : state.nextOutcomes.map(\.rawValue).joined(separator: ", ")),
            ])
        }
    }

    /// Biometric status with the sensor labelled as simulated, for `--json`.
    struct StatusJSON: Encodable {
        var isAuthenticationWithBiometricsAvailable: Bool
        var biometryType: BiometryType
        var systemStatus: BiometricSystemStatus
        var isBiometricFactorConfigured: Bool
        var authenticator = "simulated"

        init(_ status: BiometricStatus) {
            isAuthenticationWithBiometricsAvailable = status.isAuthenticationWithBiometricsAvailable
            biometryType = status.biometryType
            systemStatus = status.systemStatus
            isBiometricFactorConfigured = status.isBiometricFactorConfigured
        }
    }

    private static func describe(_ status: StatusJSON) -> String {
        Fields.render([
            ("sensor", "SIMULATED (demo/test only)"),
            ("biometry type", status.biometryType.rawValue),
            ("system status", status.systemStatus.rawValue),
            ("biometry factor", status.isBiometricFactorConfigured ? "configured" : "not configured"),
            ("can sign with biometry", status.isAuthenticationWithBiometricsAvailable ? "yes" : "no"),
        ])
    }
}
