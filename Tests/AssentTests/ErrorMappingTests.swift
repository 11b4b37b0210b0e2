import Assent
import AssentCrypto
import AssentTesting
import Foundation
import Testing

/// How every failure becomes `error` and `errorCode`; none is dropped.
@Suite struct ErrorMappingTests {
    private let path = PushFixture.credentialPath

    private func getCredential(answering response: TransportResponse) async throws -> AssentResponse<AppCredential> {
        let fixture = PushFixture()
        try fixture.enrol(lookup: false)
        fixture.transport.on("GET", path, response)
        return await fixture.assent.push.getCredential()
    }

    private func json(_ status: Int, _ text: String) -> TransportResponse {
        TransportResponse(status: status, body: Data(text.utf8))
    }

    @Test func `a transport failure is network_error with its description`() async throws {
        let fixture = PushFixture()
        try fixture.enrol(lookup: false)
        fixture.transport.unreachable("GET", path)
        let response = await fixture.assent.push.getCredential()
        #expect(response.errorCode == "network_error" && response.error == "Could not connect to the server.")
        #expect(response.data == nil)
    }

    @Test(arguments: ["", "{}", "not json", #"{"errorCode":""}"#])
    func `a 404 without an error body is api_error about the base URL`(body: String) async throws {
        let response = try await getCredential(answering: json(404, body))
        #expect(response.errorCode == "api_error")
        #expect(response.error == "API endpoint not found. Ensure your base URL is valid.")
    }

    @Test(arguments: ["invalid_credential", "expired_token", "unauthorized", "too_many_requests", "not_found"])
    func `a server error envelope passes its code and description through`(code: String) async throws {
        let response = try await getCredential(answering: json(
            code == "not_found" ? 404 : 401,
            #"{"error":"\#(code)","errorCode":"\#(code)","errorDescription":"Described: \#(code)."}"#))
        #expect(response.errorCode == code && response.error == "Described: \(code).")
        #expect(response.data == nil)
    }

    @Test func `an envelope with only error uses it for both code and description`() async throws {
        let response = try await getCredential(answering: json(403, #"{"error":"forbidden"}"#))
        #expect(response.errorCode == "forbidden" && response.error == "forbidden")
    }

    @Test func `an envelope with a code but no description still has an error text`() async throws {
        let response = try await getCredential(answering: json(429, #"{"errorCode":"too_many_requests"}"#))
        #expect(response.errorCode == "too_many_requests" && response.error == "too_many_requests")
    }

    @Test func `a non-200 answer without an envelope is api_error with its status`() async throws {
        let response = try await getCredential(answering: json(502, "<html>Bad Gateway</html>"))
        #expect(response.errorCode == "api_error" && response.error == "Unexpected error (HTTP status 502).")
    }

    @Test func `any status other than 200 is an error, even a 2xx`() async throws {
        let response = try await getCredential(answering: json(201, PushFixture.credentialJSON))
        #expect(response.isError && response.data == nil && response.errorCode == "api_error")
    }

    @Test(arguments: ["", "[]", #"{"userId":"alice"}"#, "garbage"])
    func `a 200 with an undecodable body is a decoding error`(body: String) async throws {
        let response = try await getCredential(answering: json(200, body))
        #expect(response.error == "Decoding error." && response.errorCode == "decoding_error")
    }

    @Test func `a base URL that is not an http URL is api_error and sends nothing`() async throws {
        let transport = FakeTransport()
        let keyStore = InMemoryKeyStore()
        try keyStore.store(SoftwareSigningKey(privateKey: P256.PrivateKey()), named: AssentPush.keyName)
        let assent = Assent(tenantID: "t", baseURL: "assent.test/v1", keyStore: keyStore, transport: transport, clock: .system)
        let response = await assent.push.getCredential()
        #expect(response.errorCode == "api_error" && response.error?.contains("Invalid base URL") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func `a key store that cannot create a key is create_key_pair_failed`() async {
        let transport = FakeTransport()
        let assent = Assent(tenantID: "t", baseURL: PushFixture.baseURL, keyStore: BrokenKeyStore(failLoad: false),
                            transport: transport, clock: .system)
        let response = await assent.push.addCredential(token: "t")
        #expect(response.errorCode == "create_key_pair_failed" && response.error?.contains("disk full") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func `a key that exists but cannot be read is key_store_error, never a fresh key`() async {
        let transport = FakeTransport()
        let assent = Assent(tenantID: "t", baseURL: PushFixture.baseURL, keyStore: BrokenKeyStore(failLoad: true),
                            transport: transport, clock: .system)
        for response in [
            await assent.push.addCredential(token: "t").errorCode, await assent.push.getCredential().errorCode,
            await assent.push.getChallenge().errorCode, await assent.push.removeCredential().errorCode,
            await assent.push.updateChallenge(challengeId: "c", approved: true).errorCode,
            await assent.push.updateCredential().errorCode,
        ] {
            #expect(response == "key_store_error")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func `a key that refuses to sign is signing_failed`() async throws {
        let transport = FakeTransport()
        let assent = Assent(tenantID: "t", baseURL: PushFixture.baseURL, keyStore: RefusingKeyStore(),
                            transport: transport, clock: .system)
        transport.on("GET", PushFixture.credentialPath, json: PushFixture.credentialJSON)
        let response = await assent.push.updateChallenge(challengeId: "c", approved: true)
        #expect(response.errorCode == "signing_failed" && response.error?.contains("user cancelled") == true)
        #expect(transport.requests.map(\.method) == ["GET"], "only the credential's id was asked; nothing was answered")
    }
}

/// A key store whose reads or writes fail.
private struct BrokenKeyStore: KeyStore {
    let failLoad: Bool
    func loadKey(named name: String) async throws -> (any SigningKey)? {
        if failLoad { throw KeyStoreError(.wrongPassphrase, "the passphrase does not open the key") }
        return nil
    }
    func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey {
        throw KeyStoreError(.ioFailure, "disk full")
    }
    func deleteKey(named name: String) async throws -> Bool { false }
    func loadSecret(named name: String) async throws -> [UInt8]? { nil }
    func storeSecret(_ secret: [UInt8], named name: String) async throws { throw KeyStoreError(.ioFailure, "disk full") }
    func deleteSecret(named name: String) async throws -> Bool { false }
}

/// A key store holding a key that never signs (as when the user cancels a platform key store's own prompt, which the
/// SDK's policy does not know about).
private struct RefusingKeyStore: KeyStore {
    struct Refusing: SigningKey {
        let publicKey = P256.PrivateKey().publicKey
        var userPresenceRequired: Bool { false }
        func signature(for message: [UInt8]) async throws -> [UInt8] {
            throw KeyStoreError(.ioFailure, "user cancelled")
        }
    }
    func loadKey(named name: String) async throws -> (any SigningKey)? { Refusing() }
    func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey { Refusing() }
    func deleteKey(named name: String) async throws -> Bool { true }
    func loadSecret(named name: String) async throws -> [UInt8]? { nil }
    func storeSecret(_ secret: [UInt8], named name: String) async throws {}
    func deleteSecret(named name: String) async throws -> Bool { false }
}
