import AssentServerCore
import AssentWire

extension DeviceCredentialService.Enrolment {
    /// The enrolment a device sent to `POST /v1/client/user-authenticators/{push|qr-code}` (an absent
    /// `userPresenceRequired` or `userAuthenticationRequired`: false).
    init(_ add: AddCredentialRequest) {
        self.init(
            publicKey: add.publicKey, deviceName: add.deviceName, devicePlatform: add.devicePlatform,
            pushToken: add.pushToken, userPresenceRequired: add.userPresenceRequired ?? false,
            userAuthenticationRequired: add.userAuthenticationRequired ?? false, authenticationTimeout: add.timeout,
            authorizationType: add.authorizationType, signatureScheme: add.signatureScheme,
            attestation: add.attestation.map(EnrolmentAttestation.Statement.init))
    }
}

extension ActivationService.Enrolment {
    /// The activation a device asked for with `POST /v1/client/activations`.
    init(_ create: CreateActivationRequest) {
        self.init(
            devicePublicKey: create.devicePublicKey, name: create.activationName,
            attestation: create.attestation.map(EnrolmentAttestation.Statement.init))
    }
}

extension EnrolmentAttestation.Statement {
    /// The `attestation` of an enrolment or an activation (an absent `certificateChain`: none).
    init(_ statement: AttestationStatement) {
        self.init(
            format: statement.format, challenge: statement.challenge, keyID: statement.keyId,
            attestationObject: statement.attestationObject, certificateChain: statement.certificateChain ?? [])
    }
}
