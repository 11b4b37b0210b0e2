import AssentCrypto
import AssentWire
import Foundation
import AssentSync

/// A device's public key as the wire carries it, normalised: whatever encoding arrived, the key is identified by its
/// canonical SPKI DER (uncompressed point), so one key is one credential.
package struct DeviceKey: Sendable {
    let key: P256.PublicKey
    var der: [UInt8] { key.spkiDER }

    /// Base64 of the canonical SPKI DER: one text per key, whatever encoding it arrived in (a rate limit's subject).
    package var canonicalText: String { Base64.encode(der) }

    /// From a body's `publicKey`: base64 (either alphabet, padding optional) of SPKI DER.
    package init(base64 text: String) throws {
        if let cached = Self.cache.withLock({ $0[text] }) {
            self.init(key: cached)
            return
        }
        guard text.utf8.count <= WireFieldLimit.publicKey, let der = Base64.decode(text), let key = try? P256.PublicKey(spkiDER: der) else {
            throw AssentError(.invalidRequest, "publicKey must be base64 of a P-256 SubjectPublicKeyInfo.")
        }
        Self.remember(text, key)
        self.init(key: key)
    }

    /// Parsed keys by the text they arrived as (a body's base64 or a query's double encoding): parsing and
    /// validating a point costs about as much as verifying a signature, and a device sends the same text every time.
    /// Bounded: when full, it starts over.
    private static let cache = AssentLock<[String: P256.PublicKey]>([:])
    private static let cacheLimit = 20_000

    private static func remember(_ text: String, _ key: P256.PublicKey) {
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[text] = key
        }
    }

    private init(key: P256.PublicKey) { self.key = key }

    /// From a `?publicKey=` value: base64 (iOS: url-safe without padding; Android: standard, maybe with `+` turned
    /// into a space) of the UTF-8 of the base64 SPKI string. A value that is the SPKI base64 itself is accepted too.
    package init(query value: String) throws {
        if let cached = Self.cache.withLock({ $0["?" + value] }) {
            self.init(key: cached)
            return
        }
        try self.init(parsingQuery: value)
        Self.remember("?" + value, key)
    }

    private init(parsingQuery value: String) throws {
        guard value.utf8.count <= 1024, let outer = Base64.decode(value) else {
            throw AssentError(.invalidRequest, "publicKey must be a base64-encoded public key.")
        }
        if let key = try? P256.PublicKey(spkiDER: outer) {
            self.init(key: key)
        } else if let inner = String(bytes: outer, encoding: .utf8) {
            try self.init(base64: inner)
        } else {
            throw AssentError(.invalidRequest, "publicKey must be a base64-encoded public key.")
        }
    }

    /// Whether `signature` (base64 DER ECDSA-SHA256) verifies over the UTF-8 of `message`.
    func verifies(_ signature: String?, message: String) -> Bool {
        guard let signature, signature.utf8.count <= 256, let der = Base64.decode(signature) else { return false }
        return key.isValidSignature(der, for: Array(message.utf8))
    }
}
