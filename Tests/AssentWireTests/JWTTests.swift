import AssentCrypto
import AssentWire
import Foundation
import Testing

@Suite struct JWTTests {
    static let now: Int64 = 1_700_000_000
    static let secret = [UInt8](repeating: 0x5A, count: 32)

    static func payload(exp: Int64? = now + 60, nbf: Int64? = nil, extra: String = #""sub":"user-1""#) -> [UInt8] {
        var fields = [extra]
        if let exp { fields.append(#""exp":\#(exp)"#) }
        if let nbf { fields.append(#""nbf":\#(nbf)"#) }
        return Array(("{" + fields.joined(separator: ",") + "}").utf8)
    }

    static func parts(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    static func headerJSON(_ token: String) throws -> [String: Any] {
        let bytes = try #require(Base64.decodeURL(parts(token)[0]))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// Builds a token with arbitrary header and signature bytes, as an attacker would.
    static func forge(header: String, payload: [UInt8], signature: [UInt8]) -> String {
        Base64.encodeURL(Array(header.utf8)) + "." + Base64.encodeURL(payload) + "." + Base64.encodeURL(signature)
    }

    @Test func hs256RoundTrip() throws {
        let payload = Self.payload()
        let token = try JWT.sign(payload: payload, using: .hs256(Self.secret), keyID: "k1")
        #expect(try JWT.verify(token, using: .hs256(Self.secret), now: Self.now) == payload)
        let header = try Self.headerJSON(token)
        #expect(header["alg"] as? String == "HS256")
        #expect(header["typ"] as? String == "JWT")
        #expect(header["kid"] as? String == "k1")
        #expect(JWT.unverifiedKeyID(token) == "k1")
        #expect(Base64.decodeURL(Self.parts(token)[2])?.count == 32)
    }

    @Test func es256RoundTripUsesRawSignatures() throws {
        let key = P256.PrivateKey()
        let payload = Self.payload()
        let token = try JWT.sign(payload: payload, using: .es256(key))
        #expect(try JWT.verify(token, using: .es256(key.publicKey), now: Self.now) == payload)
        #expect(try Self.headerJSON(token)["alg"] as? String == "ES256")
        #expect(JWT.unverifiedKeyID(token) == nil)
        // The signature is JOSE raw r||s; converted to DER it verifies over the signing input.
        let parts = Self.parts(token)
        let raw = try #require(Base64.decodeURL(parts[2]))
        #expect(raw.count == 64)
        let der = try #require(ECDSASignature.der(fromRaw: raw))
        #expect(key.publicKey.isValidSignature(der, for: Array((parts[0] + "." + parts[1]).utf8)))
        #expect(ECDSASignature.raw(fromDER: der) == raw)
    }

    @Test func keyIDIsEscapedJSON() throws {
        let keyID = "a\"b\\c\n\u{1}ü"
        let token = try JWT.sign(payload: Self.payload(), using: .hs256(Self.secret), keyID: keyID)
        #expect(JWT.unverifiedKeyID(token) == keyID)
        #expect(try JWT.verify(token, using: .hs256(Self.secret), now: Self.now) == Self.payload())
    }

    /// RFC 7515 A.1 (the RFC 7519 §3.1 example JWT): an HS256 token produced by someone else.
    @Test func verifiesRFC7515HS256Example() throws {
        let token = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let key = try #require(Base64.decodeURL("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let payload = try JWT.verify(token, using: .hs256(key), now: 1_300_819_379)
        #expect(String(decoding: payload, as: UTF8.self) == "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}")
        #expect(throws: CryptoError(.expiredToken, "")) { try JWT.verify(token, using: .hs256(key), now: 1_300_819_380) }
    }

    /// RFC 7515 A.3: an ES256 token (raw r||s) produced by someone else, verified with the published key.
    @Test func verifiesRFC7515ES256Example() throws {
        let token = "eyJhbGciOiJFUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        // The key of RFC 7515 A.3.1.
        let x = Base64.decodeURL("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")!
        let y = Base64.decodeURL("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")!
        let publicKey = try P256.PublicKey(x962: [0x04] + x + y)
        #expect(try JWT.verify(token, using: .es256(publicKey), now: 1_300_819_379).count == 70)
        #expect(throws: CryptoError(.invalidToken, "")) {
            try JWT.verify(token, using: .es256(P256.PrivateKey().publicKey), now: 1_300_819_379)
        }
    }

    @Test func tamperedPayloadOrSignatureIsRejected() throws {
        let hsToken = try JWT.sign(payload: Self.payload(), using: .hs256(Self.secret))
        let esKey = P256.PrivateKey()
        let esToken = try JWT.sign(payload: Self.payload(), using: .es256(esKey))
        let otherPayload = Base64.encodeURL(Self.payload(extra: #""sub":"admin""#))
        for (token, key) in [(hsToken, JWT.VerificationKey.hs256(Self.secret)), (esToken, .es256(esKey.publicKey))] {
            var parts = Self.parts(token)
            parts[1] = otherPayload
            #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(parts.joined(separator: "."), using: key, now: Self.now) }

            parts = Self.parts(token)
            var signature = Base64.decodeURL(parts[2])!
            signature[5] ^= 0x01
            parts[2] = Base64.encodeURL(signature)
            #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(parts.joined(separator: "."), using: key, now: Self.now) }

            parts = Self.parts(token)
            parts[2] = ""
            #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(parts.joined(separator: "."), using: key, now: Self.now) }
        }
        #expect(throws: CryptoError(.invalidToken, "")) {
            try JWT.verify(hsToken, using: .hs256([UInt8](repeating: 0x5B, count: 32)), now: Self.now)
        }
    }

    /// A token's alg never chooses the algorithm: an HS256 token "signed" with the public key's bytes
    /// (the classic confusion attack) fails against an ES256 key, and vice versa.
    @Test func algorithmConfusionIsRejected() throws {
        let esKey = P256.PrivateKey()
        let payload = Self.payload()
        for keyBytes in [esKey.publicKey.spkiDER, esKey.publicKey.x962Uncompressed, esKey.publicKey.x962Compressed] {
            let confused = try JWT.sign(payload: payload, using: .hs256(keyBytes))
            #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(confused, using: .es256(esKey.publicKey), now: Self.now) }
        }
        let esToken = try JWT.sign(payload: payload, using: .es256(esKey))
        #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(esToken, using: .hs256(Self.secret), now: Self.now) }
        // An ES256 header on an HMAC signature is rejected by the HS256 key.
        let mixed = Self.forge(header: #"{"alg":"ES256","typ":"JWT"}"#, payload: payload,
                               signature: HMACSHA256.authenticate(payload, key: Self.secret))
        #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(mixed, using: .hs256(Self.secret), now: Self.now) }
    }

    @Test func algNoneIsRejected() throws {
        let payload = Self.payload()
        let esKey = P256.PrivateKey()
        for header in [#"{"alg":"none","typ":"JWT"}"#, #"{"alg":"None"}"#, #"{"alg":"NONE"}"#, #"{"typ":"JWT"}"#, #"{"alg":null}"#] {
            let unsigned = Base64.encodeURL(Array(header.utf8)) + "." + Base64.encodeURL(payload) + "."
            #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(unsigned, using: .hs256(Self.secret), now: Self.now) }
            #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(unsigned, using: .es256(esKey.publicKey), now: Self.now) }
        }
    }

    @Test func expiryAndNotBeforeAreEnforcedWithLeeway() throws {
        let key = JWT.VerificationKey.hs256(Self.secret)
        func token(exp: Int64?, nbf: Int64? = nil) throws -> String {
            try JWT.sign(payload: Self.payload(exp: exp, nbf: nbf), using: .hs256(Self.secret))
        }
        let expired = try token(exp: Self.now - 1)
        #expect(throws: CryptoError(.expiredToken, "")) { try JWT.verify(expired, using: key, now: Self.now) }
        #expect(throws: CryptoError(.expiredToken, "")) { try JWT.verify(try token(exp: Self.now), using: key, now: Self.now) }
        #expect(try JWT.verify(expired, using: key, now: Self.now, leeway: 5).count > 0)
        #expect(throws: CryptoError(.expiredToken, "")) { try JWT.verify(expired, using: key, now: Self.now, leeway: 1) }
        #expect(throws: CryptoError(.expiredToken, "")) { try JWT.verify(expired, using: key, now: Self.now, leeway: -100) }

        let early = try token(exp: Self.now + 100, nbf: Self.now + 10)
        #expect(throws: CryptoError(.expiredToken, "")) { try JWT.verify(early, using: key, now: Self.now) }
        #expect(try JWT.verify(early, using: key, now: Self.now, leeway: 10).count > 0)
        #expect(try JWT.verify(early, using: key, now: Self.now + 10).count > 0)
    }

    @Test func claimsMustBeWellFormed() throws {
        let key = JWT.VerificationKey.hs256(Self.secret)
        func sign(_ json: String) throws -> String { try JWT.sign(payload: Array(json.utf8), using: .hs256(Self.secret)) }
        for json in [#"{"sub":"x"}"#, #"{"exp":"1800000000"}"#, #"{"exp":true}"#, #"{"exp":null}"#,
                     #"[1800000000]"#, #"1800000000"#, "not json", "",
                     #"{"exp":1800000000,"nbf":"0"}"#, #"{"exp":1800000000,"nbf":false}"#] {
            #expect(throws: CryptoError(.invalidToken, ""), "\(json)") { try JWT.verify(try sign(json), using: key, now: Self.now) }
        }
        #expect(try JWT.verify(try sign(#"{"exp":1800000000.5,"nbf":1.5}"#), using: key, now: Self.now).count > 0)
    }

    /// A claim or header named twice could be read one way here and another way elsewhere: such a token is refused,
    /// even when correctly signed, and its key id is not read.
    @Test func duplicateNamesInHeaderOrClaimsAreRefused() throws {
        let key = JWT.VerificationKey.hs256(Self.secret)
        let twoExpiries = try JWT.sign(payload: Array(#"{"exp":1,"exp":1800000000}"#.utf8), using: .hs256(Self.secret))
        #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(twoExpiries, using: key, now: Self.now) }

        let header = #"{"alg":"HS256","kid":"a","kid":"b"}"#
        let signingInput = Base64.encodeURL(Array(header.utf8)) + "." + Base64.encodeURL(Self.payload())
        let signature = HMACSHA256.authenticate(Array(signingInput.utf8), key: Self.secret)
        let twoKeyIDs = signingInput + "." + Base64.encodeURL(signature)
        #expect(throws: CryptoError(.invalidToken, "")) { try JWT.verify(twoKeyIDs, using: key, now: Self.now) }
        #expect(JWT.unverifiedKeyID(twoKeyIDs) == nil)

        let once = Base64.encodeURL(Array(#"{"alg":"HS256","kid":"a"}"#.utf8)) + "." + Base64.encodeURL(Self.payload())
        let onceToken = once + "." + Base64.encodeURL(HMACSHA256.authenticate(Array(once.utf8), key: Self.secret))
        #expect(try JWT.verify(onceToken, using: key, now: Self.now) == Self.payload())
        #expect(JWT.unverifiedKeyID(onceToken) == "a")
    }

    @Test func malformedTokensAreRejected() throws {
        let key = JWT.VerificationKey.hs256(Self.secret)
        let token = try JWT.sign(payload: Self.payload(), using: .hs256(Self.secret))
        let parts = Self.parts(token)
        let candidates = [
            "", ".", "..", "a.b", parts[0] + "." + parts[1], token + ".", token + "." + parts[2],
            parts[0] + "=." + parts[1] + "." + parts[2],              // padding
            parts[0] + "." + parts[1] + "." + parts[2] + "=",
            token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+/",
            " " + token, token + " ",
            Self.forge(header: "not json", payload: Self.payload(), signature: [1]),
            Self.forge(header: #"{"alg":"HS256","crit":["exp"]}"#, payload: Self.payload(), signature: [1]),
        ]
        for candidate in candidates {
            #expect(throws: CryptoError(.invalidToken, ""), "\(candidate)") { try JWT.verify(candidate, using: key, now: Self.now) }
        }
        #expect(throws: CryptoError(.invalidToken, "")) {
            try JWT.verify(String(repeating: "a", count: JWT.maximumTokenByteCount + 1), using: key, now: Self.now)
        }
        #expect(JWT.unverifiedKeyID("garbage") == nil)
        #expect(JWT.unverifiedKeyID(Self.forge(header: #"{"kid":7}"#, payload: [], signature: [])) == nil)
    }

    /// RFC 7518 §3.2: HS256 keys must be at least 256 bits, for signing and verifying.
    @Test func shortHMACKeysAreRefused() throws {
        #expect(throws: CryptoError(.invalidKey, "")) { try JWT.sign(payload: Self.payload(), using: .hs256(Array("secret".utf8))) }
        let token = try JWT.sign(payload: Self.payload(), using: .hs256(Self.secret))
        #expect(throws: CryptoError(.invalidKey, "")) { try JWT.verify(token, using: .hs256([]), now: Self.now) }
    }
}
