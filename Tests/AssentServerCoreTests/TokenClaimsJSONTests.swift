@testable import AssentServerCore
import Foundation
import Testing

/// A token's claims written by `JSONWriter` and read by `JSONReader`, against `JSONEncoder` and `JSONDecoder`: a
/// payload either side wrote reads the same on the other, so tokens survive an upgrade.
@Suite struct TokenClaimsJSONTests {
    private static let claims = [
        TokenClaims(
            iss: "assent", tid: "t-1", sub: "alice \"q\" é", act: "signIn", idk: "k/1", scope: "add:authenticators",
            typ: .track, iat: 1_796_019_155, exp: 1_796_019_755, jti: "abc_-"),
        TokenClaims(
            iss: "assent", tid: "t-2", sub: "bob", act: "a", idk: "k", scope: nil, typ: .access, iat: 0, exp: -1, jti: ""),
    ]

    @Test func `claims written by either side read the same on the other`() throws {
        for claims in Self.claims {
            #expect(TokenClaims(payload: claims.payload) == claims)
            #expect(TokenClaims(payload: Array(try JSONEncoder().encode(claims))) == claims)
            #expect(try JSONDecoder().decode(TokenClaims.self, from: Data(claims.payload)) == claims)
        }
    }

    @Test func `a payload with a claim missing or of the wrong type reads as no claims`() {
        let good = #"{"iss":"assent","tid":"t","sub":"u","act":"a","idk":"k","typ":"track","iat":1,"exp":2,"jti":"j""#
        #expect(TokenClaims(payload: Array((good + "}").utf8)) != nil)
        #expect(TokenClaims(payload: Array((good + #","scope":null}"#).utf8))?.scope == nil)
        for broken in [#","scope":3}"#, #","typ":"other"}"#, "", #","iat":1.5}"#] {
            let text = broken.hasPrefix(#","typ""#) || broken.hasPrefix(#","iat""#)
                ? good.replacingOccurrences(of: broken.hasPrefix(#","typ""#) ? #","typ":"track""# : #","iat":1"#, with: "") + broken
                : good + broken
            #expect(TokenClaims(payload: Array(text.utf8)) == nil, "\(text)")
        }
    }
}
