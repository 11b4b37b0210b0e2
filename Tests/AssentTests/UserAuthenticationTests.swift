import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import AssentSync
import Testing
import AssentTestSupport

/// Key-level user authentication (the push and QR documents' "Requiring user authentication"): every use of a key
/// that requires it passes the ``UserAuthenticator`` first, by the rules of its ``KeyAccessPolicy``.
@Suite struct UserAuthenticationTests {
    private let path = PushFixture.credentialPath

    private struct Fixture {
        let transport = FakeTransport()
        let keyStore = InMemoryKeyStore()
        let time = ManualClock(unixSeconds: PushFixture.now)
        let sensor: SimulatedBiometricAuthenticator
        let assent: Assent

        init(sensor: SimulatedBiometricAuthenticator = SimulatedBiometricAuthenticator()) {
            self.sensor = sensor
            assent = Assent(
                tenantID: PushFixture.tenantID, baseURL: PushFixture.baseURL, keyStore: keyStore, transport: transport,
                clock: time.clock, device: DeviceInfo(name: "t", platform: "linux"), userAuthenticator: sensor)
            transport.on("POST", PushFixture.credentialPath, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"2026-11-30T06:16:58.123Z"}"#)
            transport.on("POST", PushFixture.credentialPath + "/challenge", json: #"{"isVerified":true}"#)
            transport.on("GET", PushFixture.credentialPath, json: PushFixture.credentialJSON)
        }

        func answers() -> Int { transport.requests("POST", PushFixture.credentialPath + "/challenge").count }
    }

    @Test(arguments: [(0, "BIOMETRIC_OR_DEVICE_CREDENTIAL"), (1, "DEVICE_CREDENTIAL"), (2, "BIOMETRIC"),
                      (3, "BIOMETRIC_OR_DEVICE_CREDENTIAL")])
    func `the Android Int authorizationType the documents show enrols with that policy`(
        _ mask: Int, _ sent: String
    ) async throws {
        let fixture = Fixture()
        let added = await fixture.assent.push.addCredential(
            token: "t", userAuthenticationRequired: true, timeout: 30, authorizationType: mask)
        #expect(added.data != nil, "\(added.error ?? "")")
        let body = try fixture.transport.requests[0].jsonBody()
        #expect(body["authorizationType"] as? String == sent && body["timeout"] as? Int == 30)
    }

    @Test func `an Int authorizationType outside Android's masks is refused before anything is made or sent`() async {
        let fixture = Fixture()
        let push = await fixture.assent.push.addCredential(token: "t", userAuthenticationRequired: true, authorizationType: 7)
        let qr = await fixture.assent.qr.addCredential(token: "t", userAuthenticationRequired: true, authorizationType: -1)
        for response in [push, qr] {
            #expect(response.errorCode == "invalid_authorization_type" && response.data == nil)
        }
        #expect(fixture.transport.requests.isEmpty)
    }

    @Test func `timeout 0 prompts before every use of the key`() async throws {
        let fixture = Fixture()
        let added = await fixture.assent.push.addCredential(token: "t", userAuthenticationRequired: true, timeout: 0)
        #expect(added.data != nil, "\(added.error ?? "")")
        let body = try fixture.transport.requests[0].jsonBody()
        #expect(body["userAuthenticationRequired"] as? Bool == true && body["timeout"] as? Int == 0)
        #expect(body["authorizationType"] as? String == "BIOMETRIC_OR_DEVICE_CREDENTIAL")
        #expect(fixture.sensor.promptCount == 0)

        for expected in 1...3 {
            let answered = await fixture.assent.push.updateChallenge(challengeId: "c\(expected)", approved: true)
            #expect(answered.data == true, "\(answered.error ?? "")")
            #expect(fixture.sensor.promptCount == expected)
        }
        #expect(fixture.answers() == 3)
    }

    @Test func `timeout N reuses one authentication for N seconds by the clock, then prompts again`() async throws {
        let fixture = Fixture()
        _ = await fixture.assent.push.addCredential(token: "t", userAuthenticationRequired: true, timeout: 30)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "a", approved: true).data == true)
        #expect(fixture.sensor.promptCount == 1)
        fixture.time.advance(seconds: 29.9)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "b", approved: true).data == true)
        #expect(fixture.sensor.promptCount == 1, "within the timeout the key is usable without a prompt")
        fixture.time.advance(seconds: 0.2)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "c", approved: true).data == true)
        #expect(fixture.sensor.promptCount == 2, "after the timeout the next use prompts")
    }

    @Test func `userPresenceRequired prompts every use, and a failed authentication signs nothing`() async throws {
        let fixture = Fixture()
        _ = await fixture.assent.push.addCredential(token: "t", userPresenceRequired: true)
        fixture.sensor.queue(.fail)
        let refused = await fixture.assent.push.updateChallenge(challengeId: "c", approved: true)
        #expect(refused.errorCode == AssentErrorCode.userAuthenticationFailed && refused.data == nil)
        fixture.sensor.queue(.cancel)
        let cancelled = await fixture.assent.push.updateChallenge(challengeId: "c", approved: true)
        #expect(cancelled.errorCode == AssentErrorCode.userAuthenticationCanceled)
        fixture.sensor.setLockedOut(true)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "c", approved: true).errorCode
            == AssentErrorCode.biometryLockout)
        #expect(fixture.answers() == 0, "no answer was sent while authentication failed")
        fixture.sensor.setLockedOut(false)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "c", approved: true).data == true)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "d", approved: true).data == true)
        #expect(fixture.sensor.promptCount == 4 && fixture.answers() == 2)
    }

    @Test func `a biometric-only key cannot be unlocked with the device credential`() async throws {
        let fixture = Fixture(sensor: SimulatedBiometricAuthenticator(state: .init(enrolled: [], isDeviceCredentialAvailable: true)))
        _ = await fixture.assent.push.addCredential(token: "t", userAuthenticationRequired: true, authorizationType: .biometric)
        let refused = await fixture.assent.push.updateChallenge(challengeId: "c", approved: true)
        #expect(refused.errorCode == AssentErrorCode.userAuthenticationNotAvailable, "\(refused.error ?? "")")
        let either = Fixture(sensor: SimulatedBiometricAuthenticator(state: .init(enrolled: [], isDeviceCredentialAvailable: true)))
        _ = await either.assent.push.addCredential(token: "t", userAuthenticationRequired: true)
        #expect(await either.assent.push.updateChallenge(challengeId: "c", approved: true).data == true)
        #expect(fixture.answers() == 0)
    }

    @Test func `a signer from startSigning is unusable until the user authenticates, then signs once`() async throws {
        let fixture = Fixture()
        _ = await fixture.assent.push.addCredential(token: "t", userAuthenticationRequired: true, timeout: 0)
        let signer = try #require(await fixture.assent.push.startSigning().data)
        #expect(signer.requiresUserAuthentication && !signer.isReady)
        let early = await fixture.assent.push.updateChallenge(challengeId: "c", approved: true, signer: signer)
        #expect(early.errorCode == AssentErrorCode.userAuthenticationRequired)
        #expect(fixture.answers() == 0 && fixture.sensor.promptCount == 0)

        fixture.sensor.queue(.fail)
        #expect(await signer.authenticate().errorCode == AssentErrorCode.userAuthenticationFailed)
        #expect(!signer.isReady)
        #expect(await signer.authenticate().data == true)
        #expect(signer.isReady && fixture.sensor.promptCount == 2)

        // The QR credential may not use the push signer.
        #expect(await fixture.assent.qr.updateChallenge(challengeId: "c", approved: true, signer: signer).errorCode
            == AssentErrorCode.signerInvalid)
        let answered = await fixture.assent.push.updateChallenge(challengeId: "c", approved: true, signer: signer)
        #expect(answered.data == true, "\(answered.error ?? "")")
        #expect(fixture.sensor.promptCount == 2, "the signer's authentication is the one prompt")
        let request = try #require(fixture.transport.requests("POST", path + "/challenge").first)
        let body = try request.jsonBody()
        #expect(verifies(
            signature: body["signature"] as? String,
            message: SignedMessage.decision(credentialId: "ua_1", challengeId: "c", approved: true, verificationCode: String?.none),
            publicKey: body["publicKey"] as? String))
        #expect(await fixture.assent.push.updateChallenge(challengeId: "d", approved: true, signer: signer).errorCode
            == AssentErrorCode.signerInvalid)
        #expect(fixture.answers() == 1)
    }

    @Test(.timeLimit(.minutes(1))) func `a second authentication while one is showing fails at once`() async throws {
        let fixture = Fixture()
        _ = await fixture.assent.push.addCredential(token: "t", userPresenceRequired: true)
        fixture.sensor.holdPrompts()
        async let first = fixture.assent.push.updateChallenge(challengeId: "a", approved: true)
        while fixture.sensor.heldPromptCount == 0 { await Task.yield() }
        let second = await fixture.assent.push.updateChallenge(challengeId: "b", approved: true)
        #expect(second.errorCode == AssentErrorCode.biometryBusy)
        fixture.sensor.releasePrompts()
        #expect(await first.data == true)
        #expect(fixture.answers() == 1)
    }

    @Test func `the access policy is kept with the key in the file store`() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keys = directory.file("keys")
        let store = FileKeyStore(directory: keys, passphrase: "p", iterations: 1_000)
        let policy = KeyAccessPolicy(userAuthenticationRequired: true, timeout: 45, authorizationType: .deviceCredential)
        _ = try await store.createKey(named: "k", accessPolicy: policy)
        let loaded = try #require(try await store.loadKey(named: "k"))
        #expect(loaded.accessPolicy == policy)

        // The policy is authenticated: editing it in the file makes the key unreadable.
        let file = (keys as NSString).appendingPathComponent("k.key")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"timeout\" : 45", with: "\"timeout\" : 0045000")
            .write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        await #expect(throws: KeyStoreError(.corrupted, "")) { _ = try await store.loadKey(named: "k") }

        // Secrets are sealed the same way.
        try await store.storeSecret([1, 2, 3], named: "s")
        #expect(try await store.loadSecret(named: "s") == [1, 2, 3])
        #expect(!(try String(contentsOfFile: (keys as NSString).appendingPathComponent("s.data"), encoding: .utf8)).contains("AQID"))
        #expect(try await FileKeyStore(directory: keys, passphrase: "p").loadSecret(named: "s") == [1, 2, 3])
        await #expect(throws: KeyStoreError(.wrongPassphrase, "")) {
            _ = try await FileKeyStore(directory: keys, passphrase: "q").loadSecret(named: "s")
        }
        #expect(try await store.deleteSecret(named: "s"))
        #expect(try await store.loadSecret(named: "s") == nil)
    }

    @Test func `the device-credential authenticator checks the passphrase`() async throws {
        let answers = AnswerQueue(["wrong", "right"])
        let authenticator = DeviceCredentialAuthenticator(passphrase: "right", iterations: 1_000) { _ in answers.next() }
        await #expect(throws: UserAuthenticationError(.failed, "")) {
            _ = try await authenticator.authenticate(prompt: .default, allowing: .biometricOrDeviceCredential)
        }
        #expect(try await authenticator.authenticate(prompt: .default, allowing: .deviceCredential) == .deviceCredential)
        await #expect(throws: UserAuthenticationError(.canceled, "")) {
            _ = try await authenticator.authenticate(prompt: .default, allowing: .deviceCredential)
        }
        await #expect(throws: UserAuthenticationError(.notAvailable, "")) {
            _ = try await authenticator.authenticate(prompt: .default, allowing: .biometric)
        }
        #expect(await authenticator.status().systemStatus == .notSupported)
    }

    @Test func `the simulated sensor reports status and a fingerprint that changes with the enrolled set`() async throws {
        let sensor = SimulatedBiometricAuthenticator()
        #expect(await sensor.status() == UserAuthenticatorStatus(
            systemStatus: .available, biometryType: .fingerprint, isDeviceCredentialAvailable: false))
        let before = try #require(await sensor.enrolmentFingerprint())
        sensor.enrol("finger-2")
        let after = try #require(await sensor.enrolmentFingerprint())
        #expect(before != after)
        sensor.unenrol("finger-2")
        #expect(await sensor.enrolmentFingerprint() != before, "re-enrolling is a change too")
        sensor.unenrol("finger-1")
        #expect(await sensor.status().systemStatus == .notEnrolled)
        #expect(await sensor.enrolmentFingerprint() == nil)
        sensor.setLockedOut(true)
        #expect(await sensor.status().systemStatus == .lockout)
    }
}

/// Answers handed out one by one, then nil (a cancelled prompt).
final class AnswerQueue: Sendable {
    private let items: AssentLock<[String]>
    init(_ items: [String]) { self.items = AssentLock(items) }
    func next() -> String? { items.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}
