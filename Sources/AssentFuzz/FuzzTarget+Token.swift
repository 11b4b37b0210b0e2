import AssentCrypto
import AssentWire
import AssentServerCore
import Foundation

extension FuzzTarget {
    /// Tokens as the server reads them. The first byte picks the way in:
    /// - even: the rest is a token's text, read as a track or access token is (its claimed tenant, then verified as
    ///   that tenant's) and verified with an ES256 key;
    /// - odd: the rest is a payload, signed with HS256 so it gets past the signature, then verified and read as the
    ///   server reads its claims (how the fuzzer reaches `exp`, `nbf` and the claims).
    static let token = FuzzTarget(name: "token") { bytes in
        guard let first = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let now: Int64 = 1_800_000_000
        if first & 1 == 0 {
            let text = String(decoding: rest, as: UTF8.self)
            _ = TokenIssuer.claimedTenantID(of: text)
            _ = try? issuer.verify(text, tenant: tenant)
            _ = try? JWT.verify(text, using: .es256(verifyingKey), now: now, leeway: 60)
        } else {
            guard let token = try? JWT.sign(payload: rest, using: .hs256(secret), keyID: "fuzz.1") else { return }
            precondition(JWT.unverifiedKeyID(token) == "fuzz.1", "a signed token lost its key id")
            guard let payload = try? JWT.verify(token, using: .hs256(secret), now: now, leeway: 60) else { return }
            precondition(payload == rest, "a verified token returned another payload")
            _ = try? JSONDecoder().decode(TokenClaims.self, from: Data(payload))
        }
    }

    private static let secret = [UInt8](repeating: 0x5a, count: 32)
    private static let verifyingKey = P256.PrivateKey().publicKey
    private static let issuer = TokenIssuer(masterKey: [UInt8](repeating: 0x17, count: 32), clock: WallClock { 1_800_000_000_000 })
    private static let tenant = Tenant(
        id: "fuzz", name: "fuzz", secretHash: [], secretVersion: 1, keyVersion: 1, settings: TenantSettings(), createdAt: 0)
}
