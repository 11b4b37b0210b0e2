import Assent
import AssentWire
import Foundation

/// `assent device qr ...`: the QR code credential and the challenges a scanned code names, through
/// ``AssentQRCode``. The credential has its own key (`keys/assent_signing_key_qr_code.key`) and its own record
/// (`qr.json`) in the same device home as push.
enum DeviceQRCommands {
    /// The `qr` group.
    static let group = Command.group(
        "qr", "the QR code credential: enrol, show, claim a scanned challenge, approve, decline, remove",
        details: """
            A page (desktop, kiosk) shows a QR code holding assent://qr?tenant=<id>&challenge=<id>. 'claim' reads it
            (--payload TEXT, or --image FILE.png decoded with zbarimg from zbar-tools), shows who is asking and
            remembers the challenge in the home directory; 'approve' or 'decline' then answer it.
            """,
        [enrol, show, claim, approve, decline, remove])

    static let enrol = Command.leaf(
        "enrol", "create this device's QR code key and register it for a user",
        details: """
            --token is a token from tracking an action with scope add:authenticators
            (assent admin track --scope add:authenticators ...). --url and --tenant default to the ones this device
            is already enrolled with (its QR credential, else its push credential). An existing QR key is reused.
            --attest-with DIR attests the key with the test authority in DIR, as for push.
            """,
        options: DeviceHome.options + [
            DeviceHome.urlOption(required: false),
            DeviceHome.tenantOption(required: false),
            .required("--token", "T", "the enrolment token from track"),
        ] + DeviceHome.enrolOptions + DeviceAttestationOptions.options
    ) { invocation in
        let options = invocation.options
        let home = try DeviceHome(invocation)
        guard let token = try options.nonEmpty("--token") else { throw CLIError.usage("--token is required") }
        let givenURL = try options.nonEmpty("--url").map(DeviceHome.sdkBaseURL)
        let givenTenant = try options.nonEmpty("--tenant")
        let policy = try DeviceHome.keyPolicy(options)
        let attester = try DeviceAttestationOptions.attester(options, keyStore: home.keyStore)
        let existing = try DeviceQRState.load(from: home)
        let known = try existing.map { ($0.tenantId, $0.baseURL) }
            ?? home.existingEnrolment().map { ($0.tenantId, $0.baseURL) }
        guard let tenant = givenTenant ?? known?.0, let baseURL = givenURL ?? known?.1 else {
            throw CLIError.usage("--url and --tenant are required when this device is not enrolled yet")
        }
        if let existing, existing.tenantId != tenant || existing.baseURL != baseURL {
            throw CLIError.failure(
                "this device's QR code credential is enrolled with tenant \(existing.tenantId) at \(existing.baseURL); "
                    + "run 'assent device qr remove' first or use another --home", errorCode: "already_enrolled")
        }
        try home.prepare()
        let device = try DeviceHome.device(options)
        var state = DeviceQRState(tenantId: tenant, baseURL: baseURL)
        let response = await home.sdk(state.enrolment, device: device, attester: attester).qr.addCredential(
            token: token, userPresenceRequired: policy.userPresenceRequired,
            userAuthenticationRequired: policy.userAuthenticationRequired, timeout: policy.timeout,
            authorizationType: policy.authorizationType)
        guard let credential = try response.value("enrolment failed") else {
            throw CLIError.failure("enrolment failed: the server returned no credential")
        }
        state.userId = credential.userId
        state.credentialId = credential.credentialId
        try state.save(to: home)
        try invocation.output.result(DevicePushCommands.CredentialJSON(credential, state.enrolment)) {
            "Enrolled this device for QR codes for user \(credential.userId).\n"
                + DevicePushCommands.describe(credential, state.enrolment)
        }
    }

    static let show = Command.leaf(
        "show", "show the QR code credential as the server knows it",
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let state = try DeviceQRState.required(in: home)
        guard let credential = try await home.sdk(state.enrolment).qr.getCredential().value("cannot read the credential")
        else { throw CLIError.failure("the server returned no credential") }
        try invocation.output.result(DevicePushCommands.CredentialJSON(credential, state.enrolment)) {
            DevicePushCommands.describe(credential, state.enrolment)
        }
    }

    static let claim = Command.leaf(
        "claim", "claim the challenge a QR code names and show who is asking",
        details: """
            Give the code's text with --payload (assent://qr?tenant=...&challenge=... or a bare challenge ID), or a
            picture of it with --image (read with 'zbarimg -q --raw'; install zbar-tools). A code for another tenant
            is refused (tenant_mismatch) before anything is sent. Only one device can claim a challenge; the claimed
            challenge is remembered, so 'assent device qr approve' or 'decline' can follow without arguments.
            """,
        options: DeviceHome.options + [
            .bareWord("--payload", "TEXT", "the QR code's text (also accepted as a bare word: claim 'assent://qr?...')"),
            .optional("--image", "FILE", "an image (PNG, JPEG, ...) of the QR code"),
        ]
    ) { invocation in
        let options = invocation.options
        enum Source { case payload(String), image(String) }
        let source: Source
        switch (try options.nonEmpty("--payload"), try options.nonEmpty("--image")) {
        case (let payload?, nil): source = .payload(payload)
        case (nil, let image?): source = .image((image as NSString).expandingTildeInPath)
        default: throw CLIError.usage("give exactly one of --payload TEXT and --image FILE")
        }
        let home = try DeviceHome(invocation)
        var state = try DeviceQRState.required(in: home)
        let text: String
        switch source {
        case .payload(let payload): text = payload
        case .image(let path): text = try DeviceQRImage.decode(path)
        }
        guard let claimed = try await home.sdk(state.enrolment).qr.claimChallenge(payload: text)
            .value("cannot claim the challenge")
        else { throw CLIError.failure("the server returned no claim") }
        state.lastClaim = claimed
        state.claimedAt = Timestamp.iso8601(milliseconds: AssentClock.system.nowMilliseconds())
        try state.save(to: home)
        try invocation.output.result(claimed) {
            "Claimed challenge \(claimed.challengeId). Who is asking:\n" + describe(claimed)
                + "\n\nApprove with 'assent device qr approve' or decline with 'assent device qr decline'."
        }
    }

    static let approve = answer("approve", approved: true)
    static let decline = answer("decline", approved: false)

    private static func answer(_ name: String, approved: Bool) -> Command {
        Command.leaf(
            name, "\(name) a claimed challenge (default: the one claimed last, whose context is shown first)",
            options: DeviceHome.options + [
                .optional("--challenge", "ID", "the challenge to answer (default: the one claimed last)"),
            ] + DeviceFactor.options
        ) { invocation in
            let home = try DeviceHome(invocation)
            var state = try DeviceQRState.required(in: home)
            let challengeId: String
            var shown: ClaimedChallenge?
            if let given = try invocation.options.nonEmpty("--challenge") {
                challengeId = given
                shown = state.lastClaim?.challengeId == given ? state.lastClaim : nil
            } else {
                guard let last = state.lastClaim else {
                    throw CLIError.failure(
                        "no claimed challenge to \(name); run 'assent device qr claim' first or pass --challenge",
                        errorCode: "no_claimed_challenge")
                }
                challengeId = last.challengeId
                shown = last
            }
            if let shown, !invocation.output.json { Output.standard("Challenge:\n" + describe(shown)) }
            _ = try await DeviceFactor(invocation, home: home, enrolment: state.enrolment)
                .answerQR(challengeId: challengeId, approved: approved).value("cannot \(name) the challenge")
            if state.lastClaim?.challengeId == challengeId {
                state.lastClaim = nil
                state.claimedAt = nil
                try state.save(to: home)
            }
            try invocation.output.result(AnswerJSON(challengeId: challengeId, approved: approved, challenge: shown)) {
                approved ? "Approved challenge \(challengeId)." : "Declined challenge \(challengeId)."
            }
        }
    }

    static let remove = Command.leaf(
        "remove", "remove the QR code credential from the server and delete its key from this device",
        details: """
            The key and qr.json are deleted from this device even when the server refuses or is unreachable. The push
            credential is untouched.
            """,
        options: DeviceHome.options
    ) { invocation in
        let home = try DeviceHome(invocation)
        let state = try DeviceQRState.required(in: home)
        let response = await home.sdk(state.enrolment).qr.removeCredential()
        try DeviceQRState.forget(in: home)
        try DeviceHome.reportRemoval(response, invocation, credential: "QR code credential", key: "QR key")
    }

    // MARK: Output

    /// The outcome of approve or decline, for `--json`.
    struct AnswerJSON: Encodable {
        var challengeId: String
        var approved: Bool
        var challenge: ClaimedChallenge?
    }

    /// A claim's context, as a person deciding whether to approve it needs it.
    static func describe(_ claim: ClaimedChallenge) -> String {
        Fields.render([
            ("challenge", claim.challengeId),
            ("action", claim.actionCode),
            ("from IP address", claim.ipAddress.isEmpty ? "(not known)" : claim.ipAddress),
            ("location", claim.location),
            ("user agent", claim.userAgent.isEmpty ? "(none sent)" : claim.userAgent),
            ("idempotency key", claim.idempotencyKey),
            ("details", claim.custom.flatMap(Fields.json)),
            ("user details", claim.user?.custom.flatMap(Fields.json)),
        ])
    }
}
