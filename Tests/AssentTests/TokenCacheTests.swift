import Assent
import Foundation
import Testing
import AssentTesting

/// The token used by addCredential: the parameter, else the one set with setToken, else token_not_set.
@Suite struct TokenCacheTests {
    private static let added = #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"t"}"#

    @Test func `without a parameter or a cached token addCredential is token_not_set and creates nothing`() async throws {
        let fixture = PushFixture()
        let response = await fixture.assent.push.addCredential()
        #expect(response.errorCode == "token_not_set")
        #expect(response.error == "A token has not been set. Call 'setToken' first.")
        #expect(fixture.sent.isEmpty)
        #expect(try await fixture.storedPublicKey() == nil)
    }

    @Test func `a cached token is used when no parameter is given`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", PushFixture.credentialPath, json: Self.added)
        fixture.assent.setToken("cached-token")
        #expect(fixture.assent.token == "cached-token")
        #expect(await fixture.assent.push.addCredential().data?.credentialId == "ua_1")
        #expect(fixture.sent[0].header("Authorization") == "Bearer cached-token")
    }

    @Test func `a parameter wins over the cached token`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", PushFixture.credentialPath, json: Self.added)
        fixture.assent.setToken("cached-token")
        _ = await fixture.assent.push.addCredential(token: "explicit-token")
        #expect(fixture.sent[0].header("Authorization") == "Bearer explicit-token")
        #expect(fixture.assent.token == "cached-token")
    }

    @Test func `setToken replaces and clearToken forgets`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", PushFixture.credentialPath, json: Self.added)
        fixture.assent.setToken("first")
        fixture.assent.setToken("second")
        _ = await fixture.assent.push.addCredential()
        #expect(fixture.sent[0].header("Authorization") == "Bearer second")
        fixture.assent.clearToken()
        #expect(await fixture.assent.push.addCredential().errorCode == "token_not_set")
        #expect(fixture.sent.count == 1)
    }

    @Test func `calls authenticated by the device never send the token`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.assent.setToken("cached-token")
        fixture.transport.on("GET", PushFixture.credentialPath, json: PushFixture.credentialJSON)
        _ = await fixture.assent.push.getCredential()
        #expect(fixture.transport.requests[0].header("Authorization") == PushFixture.tenantAuthorization)
    }
}
