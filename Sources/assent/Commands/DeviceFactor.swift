import Assent
import AssentCrypto

/// `--factor TYPE` on `assent device push approve|deny` and `assent device qr approve|decline`: also sign the answer
/// with the activation's PowerAuth factors (header `X-PowerAuth-Authorization`), so a tenant that requires, say,
/// `possession_biometry` for approvals accepts it. Biometry uses the **simulated** sensor.
struct DeviceFactor {
    /// The options the answering commands add.
    static let options: [Option] = [
        .optional("--factor", "TYPE",
                  "also sign the answer with PowerAuth factors: possession, possession_knowledge, possession_biometry or "
                      + "possession_knowledge_biometry (needs 'assent device activate'; biometry is simulated)"),
        DevicePassword.option,
    ]

    /// The PowerAuth authentication `type` needs: the password read from the invocation for knowledge, a prompt of
    /// the simulated sensor for biometry.
    static func authentication(
        _ type: PowerAuthSignatureType, _ invocation: Invocation, prompt: AuthenticationPrompt
    ) throws -> PowerAuthAuthentication {
        switch type {
        case .possessionKnowledge: .password(try DevicePassword.read(invocation))
        case .possessionBiometry: .biometry(prompt: prompt)
        case .possessionKnowledgeBiometry: .passwordAndBiometry(password: try DevicePassword.read(invocation), prompt: prompt)
        default: .possession()
        }
    }

    /// The SDK to answer with.
    let assent: Assent
    /// The factors, when `--factor` was given.
    let authentication: PowerAuthAuthentication?
    private let sensor: SimulatedBiometricAuthenticator?
    private let home: DeviceHome

    /// The SDK for `enrolment`: plain without `--factor`; with it, PowerAuth configured from the home and the
    /// simulated sensor.
    init(_ invocation: Invocation, home: DeviceHome, enrolment: DeviceHome.Enrolment) throws {
        self.home = home
        guard let name = try invocation.options.nonEmpty("--factor") else {
            assent = home.sdk(enrolment)
            authentication = nil
            sensor = nil
            return
        }
        guard let type = PowerAuthSignatureType(rawValue: name), type.factors.contains(.possession) else {
            throw CLIError.usage(
                "--factor must be possession, possession_knowledge, possession_biometry or possession_knowledge_biometry")
        }
        let state = try DevicePowerAuthState.required(in: home)
        let sensor = try DevicePowerAuthState.sensor(in: home)
        authentication = try Self.authentication(
            type, invocation, prompt: AuthenticationPrompt(title: "Approve", message: "Confirm the challenge"))
        assent = state.sdk(enrolment, home: home, sensor: sensor)
        self.sensor = sensor
    }

    /// Answers a push challenge, factor-signed when `--factor` was given.
    /// `reportFraud` ("this wasn't me", a denial) needs no factor and is sent without one.
    func answerPush(
        challengeId: String, approved: Bool, verificationCode: String?, reportFraud: Bool = false
    ) async throws -> AssentResponse<Bool> {
        let response: AssentResponse<Bool>
        if reportFraud {
            response = await assent.push.updateChallenge(
                challengeId: challengeId, approved: approved, verificationCode: verificationCode, reportFraud: true)
        } else if let authentication {
            response = await assent.push.updateChallenge(
                challengeId: challengeId, approved: approved, verificationCode: verificationCode, authentication: authentication)
        } else {
            response = await assent.push.updateChallenge(
                challengeId: challengeId, approved: approved, verificationCode: verificationCode)
        }
        try saveSensor()
        return response
    }

    /// Answers a claimed QR challenge, factor-signed when `--factor` was given.
    func answerQR(challengeId: String, approved: Bool) async throws -> AssentResponse<Bool> {
        let response: AssentResponse<Bool>
        if let authentication {
            response = await assent.qr.updateChallenge(challengeId: challengeId, approved: approved, authentication: authentication)
        } else {
            response = await assent.qr.updateChallenge(challengeId: challengeId, approved: approved)
        }
        try saveSensor()
        return response
    }

    private func saveSensor() throws {
        if let sensor { try DevicePowerAuthState.save(sensor, in: home) }
    }
}
