import AssentCrypto

/// Makes and checks the messages a device signs on `.../push/sign` (update credential) and
/// `.../push/challenge/sign` (get challenge) without storing anything when they are asked for.
///
/// Both endpoints answer anyone who knows a credential's public key and the tenant ID. When every answer was a stored
/// row, and a device kept only its newest few, eight such requests evicted the message the device was about to use,
/// and its update failed. Now a message proves itself with a MAC under a key derived from the master key:
/// - the **update nonce** is `base64url(issued-at ‖ 16 random bytes ‖ MAC)`, the MAC over purpose, tenant,
///   credential, issued-at and the random bytes. It is good for two minutes, for that credential only, and once: the
///   update that spends it records it (``CredentialStore/spendNonce(_:)``) until it expires. Only a request signed by
///   the device records anything, so no stranger can use up, evict or pile up a device's nonces.
/// - the **get-challenge message** is `base64url(MAC)` over purpose, tenant, credential and the current minute; the
///   device's signature over it unlocks public custom data in that minute and the next. Every request in a minute
///   gets the same message, so asking for more changes nothing. It is window-bound, not single-use: a signature
///   replayed within those two minutes shows the public custom data again, to someone who could already read the
///   exchange it was taken from.
///
/// The MAC key comes from the master key ring's current version; messages made under the version before it (the
/// newest active one, ``MasterKeyRing/previous``) are still accepted, so what a device was handed just before a
/// master-key rotation still works after it.
package struct NonceIssuer: Sendable {
    private let keys: MasterKeys
    private let clock: WallClock
    /// How long an update nonce stays usable.
    static let updateLifetimeMilliseconds: Int64 = 120_000
    /// The get-challenge message's window; the current and the previous window's messages are accepted.
    static let challengeWindowSeconds: Int64 = 60
    private static let randomByteCount = 16

    /// An issuer whose MAC key is derived from the 32-byte master key (a ring of one).
    package init(masterKey: [UInt8], clock: WallClock) throws {
        self.init(keys: MasterKeys(MasterKeyRing(single: masterKey)), clock: clock)
    }

    /// An issuer whose MAC keys are derived from the master key ring `keys`.
    package init(keys: MasterKeys, clock: WallClock) {
        self.keys = keys
        self.clock = clock
    }

    /// The MAC key derived from one ring version's `masterKey`.
    private static func key(_ masterKey: [UInt8]) -> [UInt8] {
        // HKDF with a 32-byte output cannot fail.
        (try? HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: Array("assent signing message key".utf8),
            info: Array("nonce/v1".utf8), outputByteCount: 32)) ?? []
    }

    /// The MAC keys messages are accepted under: the current version's, then the previous one's.
    private func acceptedKeys() -> [[UInt8]] {
        let ring = keys.current
        return ring.recent.compactMap { ring.activeKey($0) }.map(Self.key)
    }

    // MARK: Update credential

    /// A fresh update nonce for `authenticatorID` (its `id` and `message` are the same text).
    package func updateNonce(tenantID: String, authenticatorID: String) -> Nonce {
        let now = clock.nowMilliseconds()
        let random = SecureRandom.bytes(Self.randomByteCount)
        let body = Self.bigEndian(now) + random
        let mac = HMACSHA256.authenticate(
            Self.macInput(.updateCredential, tenantID: tenantID, authenticatorID: authenticatorID, body),
            key: Self.key(keys.current.currentKey))
        let text = Base64.encodeURL(body + mac)
        return Nonce(
            id: text, tenantID: tenantID, authenticatorID: authenticatorID, purpose: .updateCredential, message: text,
            createdAt: now, expiresAt: now + Self.updateLifetimeMilliseconds)
    }

    /// The update nonce `id` when this server issued it for `authenticatorID` and it is unexpired; nil otherwise.
    /// Whether it was already spent is the store's to say.
    package func openUpdateNonce(id: String, tenantID: String, authenticatorID: String) -> Nonce? {
        let macCount = HMACSHA256.byteCount
        guard let bytes = Base64.decodeURL(id), bytes.count == 8 + Self.randomByteCount + macCount else { return nil }
        let body = Array(bytes.prefix(bytes.count - macCount))
        let input = Self.macInput(.updateCredential, tenantID: tenantID, authenticatorID: authenticatorID, body)
        guard acceptedKeys().contains(where: { HMACSHA256.isValid(Array(bytes.suffix(macCount)), for: input, key: $0) })
        else { return nil }
        let issuedAt = body.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let now = clock.nowMilliseconds()
        // A nonce from the future (a clock stepped back) is refused like an expired one.
        guard issuedAt <= now, now < issuedAt + Self.updateLifetimeMilliseconds else { return nil }
        return Nonce(
            id: id, tenantID: tenantID, authenticatorID: authenticatorID, purpose: .updateCredential, message: id,
            createdAt: issuedAt, expiresAt: issuedAt + Self.updateLifetimeMilliseconds)
    }

    // MARK: Get challenge

    /// The get-challenge message for `authenticatorID` in the current window.
    package func challengeMessage(tenantID: String, authenticatorID: String) -> String {
        challengeMessage(
            tenantID: tenantID, authenticatorID: authenticatorID, window: currentWindow(), key: Self.key(keys.current.currentKey))
    }

    /// The messages a get-challenge signature may be over now: the current window's and the previous one's, under
    /// the current ring version's key and the previous version's.
    package func acceptedChallengeMessages(tenantID: String, authenticatorID: String) -> [String] {
        let window = currentWindow()
        return acceptedKeys().flatMap { key in
            [window, window - 1].map {
                challengeMessage(tenantID: tenantID, authenticatorID: authenticatorID, window: $0, key: key)
            }
        }
    }

    private func currentWindow() -> Int64 { clock.nowSeconds() / Self.challengeWindowSeconds }

    private func challengeMessage(tenantID: String, authenticatorID: String, window: Int64, key: [UInt8]) -> String {
        Base64.encodeURL(HMACSHA256.authenticate(
            Self.macInput(.getChallenge, tenantID: tenantID, authenticatorID: authenticatorID, Self.bigEndian(window)),
            key: key))
    }

    // MARK: Encoding

    /// Purpose, tenant and credential, each length-prefixed so no two inputs share an encoding, then `body`.
    private static func macInput(_ purpose: Nonce.Purpose, tenantID: String, authenticatorID: String, _ body: [UInt8]) -> [UInt8] {
        [purpose.rawValue, tenantID, authenticatorID].flatMap { field in
            let bytes = Array(field.utf8)
            return bigEndian(Int64(bytes.count)).suffix(4) + bytes
        } + body
    }

    private static func bigEndian(_ value: Int64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
