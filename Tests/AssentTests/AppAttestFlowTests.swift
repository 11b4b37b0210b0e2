import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Testing

/// What the App Attest attester does around DeviceCheck, run against a fake service: one attested key per enrolment
/// over the binding hash, its id kept for assertions, and "unsupported" reported instead of a statement.
@Suite struct AppAttestFlowTests {
    private let binding = SHA256.hash(Array("assent-attest-v1|challenge|key".utf8))

    @Test func `an attestation attests a new key over the binding hash and keeps its id for assertions`() async throws {
        let service = FakeAppAttestService(isSupported: true)
        let keyStore = InMemoryKeyStore()
        let flow = AppAttestFlow(service: service, keyStore: keyStore)
        #expect(try await flow.assertion(clientDataHash: [9]) == nil)

        let statement = try await flow.attest(challenge: "challenge-1", bindingHash: binding)
        #expect(statement.format == "apple-appattest")
        #expect(statement.challenge == "challenge-1")
        #expect(statement.keyId == "key-1")
        #expect(statement.attestationObject.flatMap(Base64.decodeStrict) == Array("attestation of key-1".utf8))
        #expect(service.attested.map(\.0) == ["key-1"])
        #expect(service.attested.map(\.1) == [binding])
        #expect(try await keyStore.loadSecret(named: AppAttestFlow.keyIDSecretName) == Array("key-1".utf8))

        let assertion = try #require(try await flow.assertion(clientDataHash: [7, 7]))
        #expect(Base64.decodeStrict(assertion) == Array("assertion by key-1".utf8) + [7, 7])

        // A second enrolment attests a second key; assertions move to it.
        _ = try await flow.attest(challenge: "challenge-2", bindingHash: binding)
        _ = try await flow.assertion(clientDataHash: [1])
        #expect(service.asserted.map(\.0) == ["key-1", "key-2"])
    }

    @Test func `a failed attestation keeps the previous key id`() async throws {
        let service = FakeAppAttestService(isSupported: true)
        let keyStore = InMemoryKeyStore()
        let flow = AppAttestFlow(service: service, keyStore: keyStore)
        _ = try await flow.attest(challenge: "c", bindingHash: binding)
        service.failNextAttestation()
        await #expect(throws: AppAttestError(.serviceFailure, "")) { try await flow.attest(challenge: "c", bindingHash: binding) }
        #expect(try await keyStore.loadSecret(named: AppAttestFlow.keyIDSecretName) == Array("key-1".utf8))
    }

    @Test func `a device without App Attest is reported as unsupported and nothing is stored`() async throws {
        let keyStore = InMemoryKeyStore()
        let flow = AppAttestFlow(service: FakeAppAttestService(isSupported: false), keyStore: keyStore)
        #expect(!flow.isSupported)
        await #expect(throws: AppAttestError(.unsupported, "")) { try await flow.attest(challenge: "c", bindingHash: binding) }
        #expect(try await keyStore.loadSecret(named: AppAttestFlow.keyIDSecretName) == nil)
        #expect(try await flow.assertion(clientDataHash: [1]) == nil)
    }
}
