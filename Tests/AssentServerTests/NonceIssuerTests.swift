import AssentServerCore
import AssentTestSupport
import Testing

/// The signing messages devices sign, made and checked without storage (V6): nothing a stranger asks for can evict
/// or use up a device's message.
@Suite struct NonceIssuerTests {
    let clock = ServerTestClock()
    var issuer: NonceIssuer { get throws { try NonceIssuer(masterKey: Array(repeating: 7, count: 32), clock: clock.wallClock) } }

    @Test func `an update nonce opens for its credential only, until it expires`() throws {
        let issuer = try issuer
        let nonce = issuer.updateNonce(tenantID: "t", authenticatorID: "a")
        #expect(nonce.id == nonce.message && nonce.id.utf8.count <= 200)
        #expect(issuer.openUpdateNonce(id: nonce.id, tenantID: "t", authenticatorID: "a") == nonce)
        #expect(issuer.openUpdateNonce(id: nonce.id, tenantID: "t", authenticatorID: "b") == nil)
        #expect(issuer.openUpdateNonce(id: nonce.id, tenantID: "u", authenticatorID: "a") == nil)
        let other = try NonceIssuer(masterKey: Array(repeating: 8, count: 32), clock: clock.wallClock)
        #expect(other.openUpdateNonce(id: nonce.id, tenantID: "t", authenticatorID: "a") == nil, "another master key")
        for forged in [String(nonce.id.dropLast()) + (nonce.id.hasSuffix("A") ? "B" : "A"), "", "nonsense", String(nonce.id.dropLast(4))] {
            #expect(issuer.openUpdateNonce(id: forged, tenantID: "t", authenticatorID: "a") == nil, "\(forged)")
        }
        #expect(issuer.updateNonce(tenantID: "t", authenticatorID: "a") != nonce, "each nonce is fresh")
        clock.advance(seconds: 119)
        #expect(issuer.openUpdateNonce(id: nonce.id, tenantID: "t", authenticatorID: "a") != nil)
        clock.advance(seconds: 1)
        #expect(issuer.openUpdateNonce(id: nonce.id, tenantID: "t", authenticatorID: "a") == nil)
    }

    @Test func `the get-challenge message is one per credential and minute, accepted in the next minute too`() throws {
        let issuer = try issuer
        let message = issuer.challengeMessage(tenantID: "t", authenticatorID: "a")
        #expect(issuer.challengeMessage(tenantID: "t", authenticatorID: "a") == message, "asking again changes nothing")
        #expect(issuer.challengeMessage(tenantID: "t", authenticatorID: "b") != message)
        #expect(issuer.acceptedChallengeMessages(tenantID: "t", authenticatorID: "a").first == message)
        clock.advance(seconds: 60)
        #expect(issuer.challengeMessage(tenantID: "t", authenticatorID: "a") != message)
        #expect(issuer.acceptedChallengeMessages(tenantID: "t", authenticatorID: "a").contains(message))
        clock.advance(seconds: 60)
        #expect(!issuer.acceptedChallengeMessages(tenantID: "t", authenticatorID: "a").contains(message))
    }
}
