import Assent
import AssentCrypto
import AssentTesting
import Foundation
import Testing
import AssentTestSupport

/// The SDK's PowerAuth client against a real `assentd`: activation, signed requests the backend verifies, wrong
/// passwords and BLOCKED, counter synchronization, the biometry factor and factor-signed approvals.
@Suite(.serialized) struct PowerAuthEndToEndTests {
    private static let body = #"{"amount":100,"to":"NZ12-3456"}"#

    /// A server, and alice's device activated with password 1234.
    private func activated(
        settings: [String] = [], sensor: SimulatedBiometricAuthenticator = SimulatedBiometricAuthenticator(),
        clock: AssentClock = .system, invalidate: Bool = true, keyStore: any KeyStore = InMemoryKeyStore()
    ) async throws -> (ServerProcess, Assent, CreatedActivation) {
        let server = try ServerProcess(settings: settings)
        do {
            let assent = try server.powerAuthSDK(
                keyStore: keyStore, sensor: sensor, clock: clock, invalidateBiometricFactorAfterChange: invalidate)
            let created = await assent.powerAuth.createActivation(
                token: try await server.enrolmentToken("alice"), password: "1234", name: "alice's terminal")
            let activation = try #require(created.data, "\(created.error ?? "") \(created.errorCode ?? "")\n\(server.log)")
            return (server, assent, activation)
        } catch {
            server.stop()
            throw error
        }
    }

    private func header(
        _ assent: Assent, _ authentication: PowerAuthAuthentication, uriId: String = "/payments", body: String = body,
        method: String = "POST"
    ) async throws -> String {
        let response = await assent.powerAuth.authenticationHeaderForRequestWithBody(
            authentication, method: method, uriId: uriId, body: body)
        let header = try #require(response.data, "\(response.error ?? "") \(response.errorCode ?? "")")
        #expect(header.key == "X-PowerAuth-Authorization")
        return header.value
    }

    @Test func `activation, then signed requests of every type the device holds verify at the backend`() async throws {
        let (server, assent, activation) = try await activated()
        defer { server.stop() }
        #expect(activation.activationStatus == "ACTIVE" && activation.activationFingerprint.count == 8)
        let backend = try await server.activation(activation.activationId)
        #expect(backend["userId"] as? String == "alice" && backend["activationFingerprint"] as? String == activation.activationFingerprint)
        #expect(await assent.powerAuth.hasActivation())

        let signed = try await header(assent, .password("1234"))
        #expect(signed.hasPrefix("PowerAuth pa_version=\"3.3\"") && signed.contains("pa_signature_type=\"possession_knowledge\""))
        let verified = try await server.verify(uriId: "/payments", body: Self.body, header: signed)
        #expect(verified["valid"] as? Bool == true, "\(verified)")
        #expect(verified["activationId"] as? String == activation.activationId && verified["userId"] as? String == "alice")
        #expect(verified["signatureType"] as? String == "possession_knowledge")

        // A body changed in transit, or a replay, does not verify.
        let other = try await header(assent, .possession())
        #expect(try await server.verify(uriId: "/payments", body: #"{"amount":1000}"#, header: other)["valid"] as? Bool == false)
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: signed)["valid"] as? Bool == false)

        // GET: the query is signed in canonical form (sorted, form-encoded), which the backend reproduces.
        let get = try await header(assent, .possession(), uriId: "/accounts", body: "z=last&a=first+one", method: "GET")
        let canonical = PowerAuthRequestData.canonicalQuery(rawQuery: "z=last&a=first+one") ?? ""
        #expect(canonical == "a=first+one&z=last")
        let verifiedGet = try await server.verify(method: "GET", uriId: "/accounts", body: canonical, header: get)
        #expect(verifiedGet["valid"] as? Bool == true, "\(verifiedGet)")

        // Neither refusal counted (a replay's counter value is used up, and the changed body's possession component
        // does not verify); the GET verified one counter value ahead of the refused one, so the counters are in step.
        let status = try #require(await assent.powerAuth.fetchActivationStatus().data)
        #expect(status.state == .active && status.failCount == 0 && status.counterDistance == 0, "\(status)")
        // A second activation on the same device is refused.
        #expect(await assent.powerAuth.createActivation(token: try await server.enrolmentToken("alice"), password: "1").errorCode
            == AssentErrorCode.activationExists)
    }

    @Test func `the activation persists sealed in the file key store and signs from a new SDK instance`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keys = directory.file("keys")
        let first = try server.powerAuthSDK(keyStore: FileKeyStore(directory: keys, passphrase: "device", iterations: 1_000))
        let created = try #require(await first.powerAuth.createActivation(
            token: try await server.enrolmentToken("alice"), password: "1234").data)
        _ = try await header(first, .possession())   // advances the stored counter

        for file in try FileManager.default.contentsOfDirectory(atPath: keys) {
            let text = try String(contentsOfFile: (keys as NSString).appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains(created.activationId), "\(file) shows the activation in the clear")
        }
        let second = try server.powerAuthSDK(keyStore: FileKeyStore(directory: keys, passphrase: "device"))
        #expect(await second.powerAuth.activationIdentifier() == created.activationId)
        let signed = try await header(second, .password("1234"))
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: signed)["valid"] as? Bool == true)
        let wrongPassphrase = try server.powerAuthSDK(keyStore: FileKeyStore(directory: keys, passphrase: "other"))
        #expect(await wrongPassphrase.powerAuth.authenticationHeaderForRequestWithBody(
            .possession(), method: "POST", uriId: "/x", body: "").errorCode == AssentErrorCode.keyStoreError)
        #expect(await second.powerAuth.removeActivationLocal().data == true)
        #expect(!(await first.powerAuth.hasActivation()))
    }

    @Test func `an activation not signed by the pinned master key is refused and nothing is stored`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let impostor = Base64.encode(P256.PrivateKey().publicKey.x962Uncompressed)
        let assent = Assent(
            tenantID: server.tenantID, baseURL: server.apiURL, keyStore: InMemoryKeyStore(), transport: URLSessionTransport(),
            clock: .system, powerAuth: PowerAuthConfiguration(masterPublicKey: impostor))
        let created = await assent.powerAuth.createActivation(token: try await server.enrolmentToken("alice"), password: "1234")
        #expect(created.errorCode == AssentErrorCode.activationSignatureInvalid)
        #expect(!(await assent.powerAuth.hasActivation()))
        let unconfigured = Assent(
            tenantID: server.tenantID, baseURL: server.apiURL, keyStore: InMemoryKeyStore(), transport: URLSessionTransport(),
            clock: .system)
        #expect(await unconfigured.powerAuth.createActivation(token: "t", password: "1").errorCode
            == AssentErrorCode.powerAuthNotConfigured)
    }

    @Test func `five wrong passwords block the activation, then even the right one is refused`() async throws {
        let (server, assent, activation) = try await activated()
        defer { server.stop() }
        for attempt in 1...5 {
            let wrong = try await header(assent, .password("0000"))
            let verdict = try await server.verify(uriId: "/payments", body: Self.body, header: wrong)
            #expect(verdict["valid"] as? Bool == false)
            #expect(verdict["remainingAttempts"] as? Int == 5 - attempt, "\(verdict)")
            if attempt == 2 {
                let status = try #require(await assent.powerAuth.fetchActivationStatus().data)
                #expect(status.state == .active && status.failCount == 2 && status.remainingAttempts == 3)
            }
        }
        let status = try #require(await assent.powerAuth.fetchActivationStatus().data)
        #expect(status.state == .blocked && status.failCount == 5 && status.remainingAttempts == 0)
        let right = try await header(assent, .password("1234"))
        let refused = try await server.verify(uriId: "/payments", body: Self.body, header: right)
        #expect(refused["valid"] as? Bool == false && refused["activationStatus"] as? String == "BLOCKED")
        #expect(try await server.activation(activation.activationId)["activationStatus"] as? String == "BLOCKED")
    }

    @Test func `a device 19 signatures ahead still verifies, and status sync reports the deadlock past the window`() async throws {
        let (server, assent, _) = try await activated()
        defer { server.stop() }
        // Signatures computed but never sent: the counter advanced anyway.
        for _ in 0..<3 { _ = try await header(assent, .possession()) }
        let ahead = try #require(await assent.powerAuth.fetchActivationStatus().data)
        #expect(ahead.state == .active && ahead.counterDistance == 3 && !ahead.isSignatureCalculationRecommended)
        for _ in 3..<19 { _ = try await header(assent, .possession()) }
        let far = try #require(await assent.powerAuth.fetchActivationStatus().data)
        #expect(far.counterDistance == 19 && far.isSignatureCalculationRecommended)
        let twentieth = try await header(assent, .password("1234"))
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: twentieth)["valid"] as? Bool == true)
        let inStep = try #require(await assent.powerAuth.fetchActivationStatus().data)
        #expect(inStep.state == .active && inStep.counterDistance == 0)

        // A whole window (20) ahead: no signature can verify again, and the status says so.
        for _ in 0..<20 { _ = try await header(assent, .possession()) }
        let deadlock = try #require(await assent.powerAuth.fetchActivationStatus().data)
        #expect(deadlock.state == .deadlock, "\(deadlock)")
        let lost = try await header(assent, .possession())
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: lost)["valid"] as? Bool == false)
    }

    @Test func `adding biometry with a wrong password fails and counts an attempt; with the right one it signs`() async throws {
        let sensor = SimulatedBiometricAuthenticator()
        let (server, assent, _) = try await activated(sensor: sensor)
        defer { server.stop() }
        let initial = await assent.powerAuth.getBiometricStatus()
        #expect(initial == BiometricStatus(
            isAuthenticationWithBiometricsAvailable: false, biometryType: .fingerprint, systemStatus: .available,
            isBiometricFactorConfigured: false))
        #expect(await assent.powerAuth.authenticationHeaderForRequestWithBody(
            .biometry(), method: "POST", uriId: "/x", body: "").errorCode == AssentErrorCode.biometryFactorNotConfigured)

        let wrong = await assent.powerAuth.addBiometryFactor(password: "0000", prompt: AuthenticationPrompt(title: "Add biometry", message: "Allow biometry factor"))
        #expect(wrong.errorCode == AssentErrorCode.invalidSignature, "\(wrong.error ?? "")")
        #expect(wrong.error?.contains("fetchActivationStatus") == true)
        #expect(!(await assent.powerAuth.hasBiometryFactor()))
        let counted = try #require(await assent.powerAuth.fetchActivationStatus().data)
        // The wrong password's possession component verified, so the failure counted and moved the server's counter
        // past the value it used, as the device moved its own: the two are in step.
        #expect(counted.failCount == 1 && counted.counterDistance == 0, "the counted failure used up its counter value")

        let added = await assent.powerAuth.addBiometryFactor(password: "1234")
        #expect(added.data == true, "\(added.error ?? "")")
        #expect(await assent.powerAuth.hasBiometryFactor())
        #expect(await assent.powerAuth.isAuthenticationWithBiometricsAvailable())
        let prompts = sensor.promptCount
        let signed = try await header(assent, .biometry(prompt: AuthenticationPrompt(title: "Pay", message: "Confirm payment")))
        #expect(sensor.promptCount == prompts + 1)
        let verdict = try await server.verify(uriId: "/payments", body: Self.body, header: signed)
        #expect(verdict["valid"] as? Bool == true && verdict["signatureType"] as? String == "possession_biometry", "\(verdict)")
        #expect(try #require(await assent.powerAuth.fetchActivationStatus().data).failCount == 0)

        // A failed prompt signs nothing; lockout is reported.
        sensor.queue(.fail)
        #expect(await assent.powerAuth.authenticationHeaderForRequestWithBody(.biometry(), method: "POST", uriId: "/x", body: "")
            .errorCode == AssentErrorCode.userAuthenticationFailed)
        sensor.setLockedOut(true)
        #expect(await assent.powerAuth.getBiometricStatus().systemStatus == .lockout)
        #expect(await assent.powerAuth.authenticationHeaderForRequestWithBody(.biometry(), method: "POST", uriId: "/x", body: "")
            .errorCode == AssentErrorCode.biometryLockout)
        sensor.setLockedOut(false)

        #expect(await assent.powerAuth.removeBiometryFactor().data == true)
        #expect(!(await assent.powerAuth.hasBiometryFactor()))
        #expect(await assent.powerAuth.removeBiometryFactor().data == false)
    }

    @Test func `grouped authentication reuses one prompt within 10 s of the last use and prompts again after`() async throws {
        let sensor = SimulatedBiometricAuthenticator()
        let time = ManualClock(unixSeconds: Int64(Date().timeIntervalSince1970))
        let (server, assent, _) = try await activated(sensor: sensor, clock: time.clock)
        defer { server.stop() }
        #expect(await assent.powerAuth.addBiometryFactor(password: "1234").data == true)
        let before = sensor.promptCount
        let headers = await assent.powerAuth.groupedBiometricAuthentication(.biometry()) { reusable in
            var headers: [String] = []
            for step in [0.0, 9.0, 9.0, 9.5] {
                time.advance(seconds: step)
                headers.append((await assent.powerAuth.authenticationHeaderForRequestWithBody(
                    reusable, method: "POST", uriId: "/payments", body: Self.body)).data?.value ?? "")
            }
            #expect(sensor.promptCount == before + 1, "one prompt for every signature within the sliding window")
            time.advance(seconds: 10.5)
            headers.append((await assent.powerAuth.authenticationHeaderForRequestWithBody(
                reusable, method: "POST", uriId: "/payments", body: Self.body)).data?.value ?? "")
            #expect(sensor.promptCount == before + 2, "10 s after the last use the key is released and the next use prompts")
            time.advance(seconds: 1)
            headers.append((await assent.powerAuth.authenticationHeaderForRequestWithBody(
                reusable, method: "POST", uriId: "/payments", body: Self.body)).data?.value ?? "")
            #expect(sensor.promptCount == before + 2)
            return headers
        }
        let signed = try #require(headers.data, "\(headers.error ?? "")")
        for header in signed {
            #expect(try await server.verify(uriId: "/payments", body: Self.body, header: header)["valid"] as? Bool == true)
        }
        // After the group the key is released: a use prompts.
        _ = try await header(assent, .biometry())
        #expect(sensor.promptCount == before + 3)
        // A failed prompt runs nothing.
        sensor.queue(.cancel)
        let cancelled = await assent.powerAuth.groupedBiometricAuthentication(.biometry()) { _ in Issue.record("ran") }
        #expect(cancelled.errorCode == AssentErrorCode.userAuthenticationCanceled)
    }

    @Test func `an enrolment change invalidates the biometry factor only when configured`() async throws {
        let invalidating = SimulatedBiometricAuthenticator()
        let (server, strict, _) = try await activated(sensor: invalidating, invalidate: true)
        defer { server.stop() }
        #expect(await strict.powerAuth.addBiometryFactor(password: "1234").data == true)
        invalidating.enrol("finger-2")
        #expect(await strict.powerAuth.authenticationHeaderForRequestWithBody(.biometry(), method: "POST", uriId: "/x", body: "")
            .errorCode == AssentErrorCode.biometryKeyInvalidated)
        #expect(!(await strict.powerAuth.hasBiometryFactor()))
        #expect(await strict.powerAuth.getBiometricStatus().isBiometricFactorConfigured == false)
        // Adding it again binds it to the new enrolment.
        #expect(await strict.powerAuth.addBiometryFactor(password: "1234").data == true)
        let again = try await header(strict, .biometry())
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: again)["valid"] as? Bool == true)

        let lenient = SimulatedBiometricAuthenticator()
        let bob = try server.powerAuthSDK(sensor: lenient, invalidateBiometricFactorAfterChange: false)
        #expect(await bob.powerAuth.createActivation(token: try await server.enrolmentToken("bob"), password: "9876").data != nil)
        #expect(await bob.powerAuth.addBiometryFactor(password: "9876").data == true)
        lenient.enrol("finger-2")
        lenient.unenrol("finger-1")
        #expect(await bob.powerAuth.hasBiometryFactor())
        let kept = try await header(bob, .biometry())
        let verdict = try await server.verify(uriId: "/payments", body: Self.body, header: kept)
        #expect(verdict["valid"] as? Bool == true && verdict["userId"] as? String == "bob")
    }

    /// biometry-setup.md: `addBiometryFactor(password, prompt)` shows the prompt; the simplified
    /// `addBiometryFactor(password)` is for iOS, or for Android with `authenticateOnBiometricKeySetup` false.
    @Test func `adding biometry authenticates on key setup only when authenticateOnBiometricKeySetup says so, never on iOS`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        func device(_ user: String, platform: String, authenticate: Bool) async throws -> (Assent, SimulatedBiometricAuthenticator) {
            let sensor = SimulatedBiometricAuthenticator()
            let assent = try server.powerAuthSDK(
                sensor: sensor, platform: platform, authenticateOnBiometricKeySetup: authenticate)
            let created = await assent.powerAuth.createActivation(token: try await server.enrolmentToken(user), password: "1234")
            #expect(created.data != nil, "\(created.error ?? "")")
            return (assent, sensor)
        }

        // Android's default: the setup prompts, and a dismissed prompt adds nothing.
        let (android, androidSensor) = try await device("alice", platform: "android", authenticate: true)
        androidSensor.queue(.cancel)
        let prompt = AuthenticationPrompt(title: "Add biometry", message: "Allow biometry factor")
        let cancelled = await android.powerAuth.addBiometryFactor(password: "1234", prompt: prompt)
        #expect(cancelled.errorCode == AssentErrorCode.userAuthenticationCanceled && androidSensor.promptCount == 1)
        #expect(!(await android.powerAuth.hasBiometryFactor()))
        #expect(await android.powerAuth.addBiometryFactor(password: "1234", prompt: prompt).data == true)
        #expect(androidSensor.promptCount == 2)

        // authenticateOnBiometricKeySetup false: the simplified variant shows nothing, yet the key still needs biometrics.
        let (silent, silentSensor) = try await device("bob", platform: "android", authenticate: false)
        silentSensor.queue(.fail)
        let added = await silent.powerAuth.addBiometryFactor(password: "1234")
        #expect(added.data == true && silentSensor.promptCount == 0, "\(added.error ?? "")")
        #expect(await silent.powerAuth.authenticationHeaderForRequestWithBody(.biometry(), method: "POST", uriId: "/x", body: "")
            .errorCode == AssentErrorCode.userAuthenticationFailed, "the queued failure met the first use instead")
        let signed = try await header(silent, .biometry())
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: signed)["valid"] as? Bool == true)

        // iOS: setting up the key never prompts, whatever the option says.
        let (iPhone, iPhoneSensor) = try await device("carol", platform: "ios", authenticate: true)
        #expect(await iPhone.powerAuth.addBiometryFactor(password: "1234", prompt: prompt).data == true)
        #expect(iPhoneSensor.promptCount == 0)
        #expect(await iPhone.powerAuth.hasBiometryFactor())
    }

    /// biometry-setup.md: "By default, the biometry factor-related key is invalidated on Android and not invalidated
    /// on iOS after the biometry enrolled in the system is changed."
    @Test func `by default an enrolment change invalidates the biometry factor on Android and not on iOS`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        for (user, platform, survives) in [("alice", "android", false), ("bob", "ios", true), ("carol", "linux", false)] {
            let sensor = SimulatedBiometricAuthenticator()
            let assent = try server.powerAuthSDK(sensor: sensor, platform: platform, invalidateBiometricFactorAfterChange: nil)
            #expect(await assent.powerAuth.createActivation(token: try await server.enrolmentToken(user), password: "1234").data != nil)
            #expect(await assent.powerAuth.addBiometryFactor(password: "1234").data == true)
            sensor.enrol("finger-2")
            #expect(await assent.powerAuth.hasBiometryFactor() == survives, "\(platform)")
        }
    }

    @Test(.timeLimit(.minutes(1))) func `a second biometric authentication while one is in progress fails at once`() async throws {
        let sensor = SimulatedBiometricAuthenticator()
        let (server, assent, _) = try await activated(sensor: sensor)
        defer { server.stop() }
        #expect(await assent.powerAuth.addBiometryFactor(password: "1234").data == true)
        sensor.holdPrompts()
        async let first = assent.powerAuth.authenticationHeaderForRequestWithBody(
            .biometry(), method: "POST", uriId: "/payments", body: Self.body)
        while sensor.heldPromptCount == 0 { await Task.yield() }
        let second = await assent.powerAuth.authenticationHeaderForRequestWithBody(
            .biometry(), method: "POST", uriId: "/payments", body: Self.body)
        #expect(second.errorCode == AssentErrorCode.biometryBusy && second.data == nil)
        let secondGroup = await assent.powerAuth.groupedBiometricAuthentication(.biometry()) { _ in 1 }
        #expect(secondGroup.errorCode == AssentErrorCode.biometryBusy)
        sensor.releasePrompts()
        let header = try #require(await first.data)
        #expect(try await server.verify(uriId: "/payments", body: Self.body, header: header.value)["valid"] as? Bool == true)
    }

    @Test func `a push approval under a possession_biometry policy succeeds with biometry and is refused without it`() async throws {
        let sensor = SimulatedBiometricAuthenticator()
        let aliceStore = InMemoryKeyStore()
        let (server, assent, _) = try await activated(
            settings: ["--required-approval-factor", "possession_biometry"], sensor: sensor, keyStore: aliceStore)
        defer { server.stop() }
        #expect(await assent.push.addCredential(token: try await server.enrolmentToken("alice")).data != nil)
        #expect(await assent.powerAuth.addBiometryFactor(password: "1234").data == true)

        func startPush() async throws -> (token: String, challengeId: String) {
            let tracked = try await server.track(user: "alice", action: "signIn")
            let token = try #require(tracked["token"] as? String)
            let started = try await server.call("POST", "/v1/client/challenge/push", authorization: "Bearer \(token)",
                                                body: ["action": "signIn"])
            return (token, try #require(started.json["challengeId"] as? String, "\(started.json)"))
        }
        func isVerified(_ token: String, _ challengeId: String) async throws -> Bool? {
            let verdict = try await server.call("POST", "/v1/client/verify/push", authorization: "Bearer \(token)",
                                                body: ["challengeId": challengeId])
            return verdict.json["isVerified"] as? Bool
        }

        let (token, challengeId) = try await startPush()
        let plain = await assent.push.updateChallenge(challengeId: challengeId, approved: true)
        #expect(plain.errorCode == AssentErrorCode.factorRequired, "\(plain.error ?? "")")
        let withPassword = await assent.push.updateChallenge(
            challengeId: challengeId, approved: true, authentication: .password("1234"))
        #expect(withPassword.errorCode == AssentErrorCode.factorRequired, "a password is not biometry")
        #expect(try await isVerified(token, challengeId) == false)

        let prompts = sensor.promptCount
        let approved = await assent.push.updateChallenge(
            challengeId: challengeId, approved: true, authentication: .biometry(prompt: AuthenticationPrompt(title: "Sign in", message: "Approve the sign-in")))
        #expect(approved.data == true, "\(approved.error ?? "") \(approved.errorCode ?? "")")
        #expect(sensor.promptCount == prompts + 1)
        #expect(try await isVerified(token, challengeId) == true)

        // The same policy holds for QR approvals.
        #expect(await assent.qr.addCredential(token: try await server.enrolmentToken("alice")).data != nil)
        let page = "Basic " + Data("\(server.tenantID):".utf8).base64EncodedString()
        let qr = try await server.call("POST", "/v1/client/challenge/qr-code", authorization: page, body: ["action": "signIn"])
        let qrChallenge = try #require(qr.json["challengeId"] as? String, "\(qr.json)")
        #expect(await assent.qr.claimChallenge(challengeId: qrChallenge).data != nil)
        #expect(await assent.qr.updateChallenge(challengeId: qrChallenge, approved: true).errorCode == AssentErrorCode.factorRequired)
        let qrApproved = await assent.qr.updateChallenge(challengeId: qrChallenge, approved: true, authentication: .biometry())
        #expect(qrApproved.data == true, "\(qrApproved.error ?? "")")

        // Another user's activation signing alice's approval is a 401: the authentication object is spent.
        let bobStore = InMemoryKeyStore()
        let bob = try server.powerAuthSDK(keyStore: bobStore, sensor: sensor)
        #expect(await bob.powerAuth.createActivation(token: try await server.enrolmentToken("bob"), password: "5555").data != nil)
        #expect(await bob.powerAuth.addBiometryFactor(password: "5555").data == true)
        // A device holding alice's push key but bob's activation.
        let alicePushKey = try #require(try await aliceStore.loadKey(named: AssentPush.keyName) as? SoftwareSigningKey)
        try bobStore.store(alicePushKey, named: AssentPush.keyName)
        let (_, second) = try await startPush()
        let bobsAuthentication = PowerAuthAuthentication.biometry()
        let foreign = await bob.push.updateChallenge(challengeId: second, approved: true, authentication: bobsAuthentication)
        #expect(foreign.errorCode == AssentErrorCode.invalidSignature, "\(foreign.error ?? "")")
        #expect(bobsAuthentication.isInvalidated)
        let reused = await bob.powerAuth.authenticationHeaderForRequestWithBody(bobsAuthentication, method: "POST", uriId: "/x", body: "")
        #expect(reused.errorCode == AssentErrorCode.authenticationInvalidated)
    }

    @Test func `an approval with a factor signature and a stale remembered id is not retried; the id is forgotten`() async throws {
        let aliceStore = InMemoryKeyStore()
        let (server, assent, activation) = try await activated(keyStore: aliceStore)
        defer { server.stop() }
        let added = await assent.push.addCredential(token: try await server.enrolmentToken("alice"))
        let credentialId = try #require(added.data?.credentialId, "\(added.error ?? "")")
        let key = try #require(try await aliceStore.loadKey(named: AssentPush.keyName))
        try await aliceStore.setCredentialID("ua_stale", forKeyNamed: AssentPush.keyName, publicKey: key.publicKey)

        let tracked = try await server.track(user: "alice", action: "signIn")
        let token = try #require(tracked["token"] as? String)
        let started = try await server.call("POST", "/v1/client/challenge/push", authorization: "Bearer \(token)",
                                            body: ["action": "signIn"])
        let challengeId = try #require(started.json["challengeId"] as? String, "\(started.json)")
        let authentication = PowerAuthAuthentication.password("1234")
        let refused = await assent.push.updateChallenge(challengeId: challengeId, approved: true, authentication: authentication)
        #expect(refused.errorCode == AssentErrorCode.invalidSignature, "\(refused.error ?? "")")
        #expect(authentication.isInvalidated, "a 401 spends the authentication; the SDK did not send it again")
        #expect(try await aliceStore.credentialID(forKeyNamed: AssentPush.keyName, publicKey: key.publicKey) == nil)
        let state = try await server.activation(activation.activationId)
        #expect(state["failedAttempts"] as? Int == 0, "the password was right: \(state)")

        // The next approval asks for the id again and goes through.
        let approved = await assent.push.updateChallenge(
            challengeId: challengeId, approved: true, authentication: .password("1234"))
        #expect(approved.data == true, "\(approved.error ?? "") \(approved.errorCode ?? "")")
        #expect(try await aliceStore.credentialID(forKeyNamed: AssentPush.keyName, publicKey: key.publicKey) == credentialId)
    }
}
