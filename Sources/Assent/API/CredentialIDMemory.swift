import AssentCrypto

/// What the device remembers of its credential's id (`userAuthenticatorId`) for the key under ``name``, so a bound
/// message can name it without a `GET` of the credential first.
///
/// A ``CredentialIDStore`` (``FileKeyStore``, `InMemoryKeyStore`) keeps the id with the key. Any other ``KeyStore``
/// keeps it as a secret beside the key (`<name>.credential-id`, the key's base64 SPKI and the id on two lines), read
/// only while it names the key that is stored. Remembering is best effort: a store that cannot read or write the id
/// costs a `GET`, never the call.
struct CredentialIDMemory: Sendable {
    let keyStore: any KeyStore
    /// The key's name in the ``KeyStore``.
    let name: String

    /// The longest id remembered; longer ones (and ids with characters outside printable ASCII) are asked for each
    /// time instead.
    static let maximumLength = 128

    /// The id remembered for `key`, if any.
    func recall(for key: any SigningKey) async -> String? {
        if let store = keyStore as? any CredentialIDStore {
            return try? await store.credentialID(forKeyNamed: name, publicKey: key.publicKey)
        }
        guard let secretName, let bytes = try? await keyStore.loadSecret(named: secretName) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[0] == Base64.encode(key.publicKey.spkiDER) else { return nil }
        let id = String(lines[1])
        return Self.isRememberable(id) ? id : nil
    }

    /// Remembers `id` for `key` (nothing happens for an id that cannot be remembered).
    func remember(_ id: String, for key: any SigningKey) async {
        guard Self.isRememberable(id) else { return await forget(for: key) }
        if let store = keyStore as? any CredentialIDStore {
            try? await store.setCredentialID(id, forKeyNamed: name, publicKey: key.publicKey)
        } else if let secretName {
            try? await keyStore.storeSecret(Array("\(Base64.encode(key.publicKey.spkiDER))\n\(id)".utf8), named: secretName)
        }
    }

    /// Forgets any id remembered for `key`.
    func forget(for key: any SigningKey) async {
        if let store = keyStore as? any CredentialIDStore {
            try? await store.setCredentialID(nil, forKeyNamed: name, publicKey: key.publicKey)
        } else if let secretName {
            _ = try? await keyStore.deleteSecret(named: secretName)
        }
    }

    /// The secret's name for a plain ``KeyStore``, when it is a valid key name.
    private var secretName: String? {
        let secret = "\(name).credential-id"
        return KeyName.isValid(secret) ? secret : nil
    }

    /// Whether `id` is short printable ASCII (the ids the server makes are; anything else is not worth keeping).
    static func isRememberable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumLength && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
