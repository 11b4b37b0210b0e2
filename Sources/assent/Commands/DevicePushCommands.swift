import Assent
import AssentWire
import Foundation

/// `assent device push ...`: the push credential and its challenges, through ``AssentPush``.
enum DevicePushCommands {
    /// The `push` group.
    static let group = Command.group(
        "push", "the push credential: enrol, show, update, challenge, approve, deny, remove",
        [enrol, show, update, challenge, approve, deny, remove])

    static let enrol = Command.leaf(
        "enrol", "create this device's key and register it for a user",
        details: """
            --token is a token from tracking an action with scope add:authenticators
            (assent admin track --scope add:authenticators ...). The tenant and URL are remembered in the home
            directory, so later commands need neither. An existing key is reused. --attest-with DIR sends a device
            attestation of the key made by the test authority in DIR, for a tenant whose attestationPolicy asks for one.
            """,
        options: DeviceHome.options + [
            DeviceHome.urlOption(required: true),
            DeviceHome.tenantOption(required: true),
            .required("--token", "T", "the enrolment token from track"),
            .optional("--push-token", "P", "the APNs or FCM token to deliver challenges to"),
        ] + DeviceHome.enrolOptions + DeviceAttestationOptions.options
    ) { invocation in
        let options = invocation.options
        let home = try DeviceHome(invocation)
        let baseURL = try DeviceHome.sdkBaseURL(try options.required("--url"))
        guard let tenant = try options.nonEmpty("--tenant") else { throw CLIError.usage("--tenant is required") }
        guard let token = try options.nonEmpty("--token") else { throw CLIError.usage("--token is required") }
        let policy = try DeviceHome.keyPolicy(options)
        let attester = try DeviceAttestationOptions.attester(options, keyStore: home.keyStore)
        if let existing = try home.existingEnrolment(), existing.tenantId != tenant || existing.baseURL != baseURL {
            throw CLIError.failure(
                "this device is enrolled with tenant \(existing.tenantId) at \(existing.baseURL); run "
                    + "'assent device push remove' first or use another --home", errorCode: "already_enrolled")
        }
        try home.prepare()
        let device = try DeviceHome.device(options)
        var enrolment = DeviceHome.Enrolment(tenantId: tenant, baseURL: baseURL)
        let response = await home.sdk(enrolment, device: device, attester: attester).push.addCredential(
            token: token, userPresenceRequired: policy.userPresenceRequired,
            userAuthenticationRequired: policy.userAuthenticationRequired, timeout: policy.timeout,
            authorizationType: policy.authorizationType, pushToken: try options.nonEmpty("--push-token"))
        guard let credential = try response.value("enrolment failed") else {
            throw CLIError.failure("enrolment failed: the server returned no credential")
        }
        enrolment.userId = credential.userId
        enrolment.credentialId = credential.credentialId
        try home.save(enrolment)
        try invocation.output.result(CredentialJSON(credential, enrolment)) {
            "Enrolled this device for user \(credential.userId).\n" + describe(credential, enrolment)
        }
    }

    static let show = Command.leaf(
        "show", "show the push credential as the server knows it",
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let enrolment = try home.enrolment()
        guard let credential = try await home.sdk(enrolment).push.getCredential().value("cannot read the credential") else {
            throw CLIError.failure("the server returned no credential")
        }
        try invocation.output.result(CredentialJSON(credential, enrolment)) { describe(credential, enrolment) }
    }

    static let update = Command.leaf(
        "update", "register a new push token and/or renew the credential's lease (no backend token needed)",
        options: DeviceHome.options + [
            .optional("--push-token", "P", "the new APNs or FCM token"),
            .flag("--reset-expiry", "renew the credential's lease"),
        ]
    ) { invocation in
        let home = try DeviceHome(invocation)
        let enrolment = try home.enrolment()
        let response = await home.sdk(enrolment).push.updateCredential(
            pushToken: try invocation.options.nonEmpty("--push-token"),
            resetExpiry: invocation.options.flag("--reset-expiry"))
        guard let updated = try response.value("update failed") else {
            throw CLIError.failure("update failed: the server returned no credential")
        }
        try invocation.output.result(updated) {
            "Updated the credential.\n" + Fields.render([
                ("credential", updated.userAuthenticatorId),
                ("user", updated.userId),
                ("last verified", updated.lastVerifiedAt),
                ("push token", updated.pushToken),
                ("expires", updated.expiresAt),
            ])
        }
    }

    static let challenge = Command.leaf(
        "challenge", "show the pending challenge with its context (--json prints null when none)",
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let pending = try await home.sdk(try home.enrolment()).push.getChallenge().value("cannot fetch the challenge")
        try invocation.output.result(pending) {
            guard let pending else { return "No pending challenge." }
            return "Pending challenge:\n" + describe(pending)
        }
    }

    static let approve = answer("approve", approved: true)
    static let deny = answer("deny", approved: false)

    private static func answer(_ name: String, approved: Bool) -> Command {
        Command.leaf(
            name, "\(name) a challenge (default: the pending one, whose context is shown first)",
            options: DeviceHome.options + [
                .optional("--challenge", "ID", "the challenge to answer (default: the pending one)"),
                .optional("--code", "CODE", "the verification code the sign-in page shows, when it asks for one"),
            ] + (approved ? [] : [
                .flag("--not-me", "this wasn't me: report the push as fraud, which locks push for the user for a while"),
            ]) + DeviceFactor.options
        ) { invocation in
            let options = invocation.options
            let home = try DeviceHome(invocation)
            let answering = try DeviceFactor(invocation, home: home, enrolment: try home.enrolment())
            let push = answering.assent.push
            let code = try options.nonEmpty("--code")
            var shown: AppChallenge?
            let challengeId: String
            if let given = try options.nonEmpty("--challenge") {
                challengeId = given
            } else {
                guard let pending = try await push.getChallenge().value("cannot fetch the challenge") else {
                    throw CLIError.failure("no pending challenge to \(name)", errorCode: "no_pending_challenge")
                }
                if !invocation.output.json { Output.standard("Challenge:\n" + describe(pending)) }
                if approved, pending.verificationCodeRequired == true, code == nil {
                    throw CLIError.usage("this challenge needs --code: the number shown on the sign-in page")
                }
                shown = pending
                challengeId = pending.challengeId
            }
            let notMe = !approved && options.flag("--not-me")
            _ = try await answering.answerPush(
                challengeId: challengeId, approved: approved, verificationCode: code, reportFraud: notMe
            ).value("cannot \(name) the challenge")
            try invocation.output.result(
                AnswerJSON(challengeId: challengeId, approved: approved, reportedFraud: notMe ? true : nil, challenge: shown)
            ) {
                approved
                    ? "Approved challenge \(challengeId)."
                    : notMe ? "Denied challenge \(challengeId) and reported it as not yours." : "Denied challenge \(challengeId)."
            }
        }
    }

    static let remove = Command.leaf(
        "remove", "remove the push credential from the server and delete the key from this device",
        details: "The key and the enrolment are deleted from this device even when the server refuses or is unreachable.",
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let enrolment = try home.enrolment()
        let response = await home.sdk(enrolment).push.removeCredential()
        try home.forget()
        try DeviceHome.reportRemoval(response, invocation, credential: "push credential", key: "key")
    }

    // MARK: Output

    /// A credential with where it is enrolled, for `--json`.
    struct CredentialJSON: Encodable {
        var credentialId: String
        var userId: String
        var createdAt: String
        var lastAuthenticatedAt: String?
        var expiresAt: String?
        var tenantId: String
        var baseURL: String

        init(_ credential: AppCredential, _ enrolment: DeviceHome.Enrolment) {
            credentialId = credential.credentialId
            userId = credential.userId
            createdAt = credential.createdAt
            lastAuthenticatedAt = credential.lastAuthenticatedAt
            expiresAt = credential.expiresAt
            tenantId = enrolment.tenantId
            baseURL = enrolment.baseURL
        }
    }

    /// The outcome of approve or deny, for `--json`.
    struct AnswerJSON: Encodable {
        var challengeId: String
        var approved: Bool
        /// True when denied with `--not-me`.
        var reportedFraud: Bool?
        var challenge: AppChallenge?
    }

    /// A credential with where it is enrolled, for people, the same lines for push and QR code credentials: a QR code
    /// credential has no lease, so its `expires` says `never` (it was left out, unlike push's; issue 22 §3.9).
    static func describe(_ credential: AppCredential, _ enrolment: DeviceHome.Enrolment) -> String {
        Fields.render([
            ("credential", credential.credentialId),
            ("user", credential.userId),
            ("created", credential.createdAt),
            ("last used", credential.lastAuthenticatedAt ?? "never"),
            ("expires", credential.expiresAt ?? "never"),
            ("tenant", enrolment.tenantId),
            ("server", enrolment.baseURL),
        ])
    }

    /// A challenge's context, as a person deciding whether to approve it needs it.
    static func describe(_ challenge: AppChallenge) -> String {
        Fields.render([
            ("challenge", challenge.challengeId),
            ("action", challenge.actionCode),
            ("user", challenge.userId),
            ("from IP address", challenge.ipAddress),
            ("user agent", challenge.userAgent),
            ("device", challenge.deviceId),
            ("idempotency key", challenge.idempotencyKey),
            ("expires", challenge.expiresAt.map { Timestamp.iso8601(milliseconds: $0 * 1000) }),
            ("code required", challenge.verificationCodeRequired == true ? "yes: pass --code with the number shown" : nil),
            ("details", challenge.custom.flatMap(Fields.json)),
            ("user details", challenge.user?.custom.flatMap(Fields.json)),
        ])
    }
}
