package import AssentCrypto

/// A ``KeyStore`` that keeps, beside each key, the id the server gave the key's credential (`userAuthenticatorId`),
/// so the SDK can sign its bound messages (which name that id) without asking the server first.
///
/// The id belongs to one key: it is answered and replaced only while the key stored under the name is still
/// `publicKey`, and creating or deleting the key under the name drops it. ``FileKeyStore`` keeps it in the key's file and `InMemoryKeyStore` (library `AssentTesting`) with the key; any other
/// key store gets the same from the SDK through a small secret beside the key (see `CredentialIDMemory`). Package
/// access on purpose: the public ``KeyStore`` protocol is unchanged.
package protocol CredentialIDStore: KeyStore {
    /// The id remembered for the key under `name`, or nil when none is, or when the key there is not `publicKey`.
    func credentialID(forKeyNamed name: String, publicKey: P256.PublicKey) async throws -> String?

    /// Remembers `id` (nil forgets it) for the key under `name`; does nothing when the key there is not `publicKey`.
    func setCredentialID(_ id: String?, forKeyNamed name: String, publicKey: P256.PublicKey) async throws
}
