package import AssentCrypto
import Foundation
import AssentSync

/// A ``KeyStore`` for Linux: one file per key in a directory only this user can use, the private key sealed with
/// AES-256-GCM.
///
/// **Where the sealing key comes from.**
/// - With a passphrase: PBKDF2-HMAC-SHA256 over the passphrase with a random 16-byte salt per key file
///   (``defaultIterations`` rounds, the OWASP figure for PBKDF2-SHA256); the salt and count are stored with the key.
///   Whoever copies the directory still needs the passphrase.
/// - Without one: a random 32-byte key in `keystore.secret` beside the keys (created once, `0600`). That keeps keys
///   out of plain sight (backups of single files, accidental `cat`, grep) but protects nothing from someone who can
///   read the whole directory as this user. Use a passphrase where that matters.
///
/// The GCM additional data binds the key's name, public key, access policy and sealing parameters, so a
/// file renamed, edited or swapped for another fails to open as ``KeyStoreError/Code/corrupted``. The one field
/// outside it is `credentialId`, the id the server gave the key's credential (``CredentialIDStore``): written and
/// replaced without touching the sealed key, ignored by versions that predate it, and only a hint — the server checks
/// every signature against its own id for the key, so a wrong one costs a refused call, one `GET` and one retry. A wrong passphrase
/// fails as ``KeyStoreError/Code/wrongPassphrase``; no key is ever replaced because it could not be read.
///
/// **Files.** The directory is created `0700`, every file `0600`, all written atomically (temporary file, `fsync`,
/// rename, directory `fsync`); a directory or file other users can access is refused. A key lives in `<name>.key`,
/// a JSON document: `format`, `name`, `publicKey` (base64 SPKI), `userPresenceRequired`, for Android-style keys
/// `userAuthenticationRequired`, `timeout` and `authorizationType`, once the SDK learnt it `credentialId`, `protection` (`passphrase` or `keyfile`), `kdf`
/// (`algorithm`, `iterations`, `salt`), and `nonce`, `ciphertext`, `tag` (base64) — the private scalar appears only
/// inside `ciphertext`. A secret lives in `<name>.data`, the same document with format `assent-secret-v1` and an
/// empty `publicKey`.
public final class FileKeyStore: KeyStore {
    /// PBKDF2 rounds for new keys sealed under a passphrase.
    public static let defaultIterations = 600_000

    /// The directory holding the keys.
    public let directory: String
    private let passphrase: [UInt8]?
    private let iterations: Int
    /// Sealing keys already derived from the passphrase, by salt and rounds: a key file is read and opened afresh on
    /// every load, but PBKDF2 runs once per salt for the life of the store.
    private let derivedKeys = AssentLock<[String: [UInt8]]>([:])

    /// The store in `directory` (created on first write). `passphrase` nil or empty selects the key-file scheme.
    /// `iterations` applies to keys created from now on; existing keys keep the count stored with them.
    public init(directory: String, passphrase: String? = nil, iterations: Int = FileKeyStore.defaultIterations) {
        self.directory = directory
        self.passphrase = passphrase.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
        self.iterations = max(1, iterations)
    }

    /// `$XDG_DATA_HOME/assent/keys`, else `~/.local/share/assent/keys`: where ``Assent/init(tenantID:baseURL:)``
    /// keeps keys.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return (data as NSString).appendingPathComponent("assent/keys")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".local/share/assent/keys")
    }

    /// Whether keys are sealed under a passphrase (otherwise under the random key file).
    public var usesPassphrase: Bool { passphrase != nil }

    // MARK: KeyStore

    /// The key under `name`, or nil when there is none.
    public func loadKey(named name: String) async throws -> (any SigningKey)? {
        let path = try keyPath(name)
        guard try SecureFile.prepareDirectory(directory, create: false) else { return nil }
        guard let bytes = try SecureFile.read(path) else { return nil }
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: Data(bytes)) else {
            throw KeyStoreError(.corrupted, "\(path) is not an Assent key file")
        }
        return try open(file, name: name, path: path)
    }

    /// Generates a new key under `name`, sealed and written atomically, replacing any key stored there.
    public func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey {
        let path = try keyPath(name)
        try SecureFile.prepareDirectory(directory, create: true)
        let privateKey = P256.PrivateKey()
        var file = KeyFile(
            format: Self.format, name: name, publicKey: Base64.encode(privateKey.publicKey.spkiDER),
            userPresenceRequired: accessPolicy.userPresenceRequired, protection: passphrase == nil ? .keyfile : .passphrase,
            kdf: nil, nonce: "", ciphertext: "", tag: "")
        if accessPolicy.userAuthenticationRequired {
            file.userAuthenticationRequired = true
            file.timeout = accessPolicy.timeout
            file.authorizationType = accessPolicy.authorizationType.rawValue
        }
        try write(try seal(privateKey.rawRepresentation, into: file), to: path)
        return SoftwareSigningKey(privateKey: privateKey, accessPolicy: accessPolicy)
    }

    /// Deletes the key file for `name`; returns whether there was one.
    @discardableResult
    public func deleteKey(named name: String) async throws -> Bool {
        let path = try keyPath(name)
        guard try SecureFile.prepareDirectory(directory, create: false) else { return false }
        return try SecureFile.remove(path)
    }

    /// The secret under `name` (`<name>.data`), or nil when there is none.
    public func loadSecret(named name: String) async throws -> [UInt8]? {
        let path = try secretPath(name)
        guard try SecureFile.prepareDirectory(directory, create: false) else { return nil }
        guard let bytes = try SecureFile.read(path) else { return nil }
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: Data(bytes)), file.format == Self.secretFormat,
              file.name == name
        else { throw KeyStoreError(.corrupted, "\(path) is not an Assent secret file") }
        return try unseal(file, path: path)
    }

    /// Seals `secret` under `name` and writes it atomically, replacing any secret stored there.
    public func storeSecret(_ secret: [UInt8], named name: String) async throws {
        let path = try secretPath(name)
        try SecureFile.prepareDirectory(directory, create: true)
        let file = KeyFile(
            format: Self.secretFormat, name: name, publicKey: "", userPresenceRequired: false,
            protection: passphrase == nil ? .keyfile : .passphrase, kdf: nil, nonce: "", ciphertext: "", tag: "")
        try write(try seal(secret, into: file), to: path)
    }

    /// Deletes the secret file for `name`; returns whether there was one.
    @discardableResult
    public func deleteSecret(named name: String) async throws -> Bool {
        let path = try secretPath(name)
        guard try SecureFile.prepareDirectory(directory, create: false) else { return false }
        return try SecureFile.remove(path)
    }

    // MARK: Credential id

    /// The credential id recorded in the key file under `name`, when that file holds `publicKey`.
    package func credentialID(forKeyNamed name: String, publicKey: P256.PublicKey) async throws -> String? {
        try readKeyFile(name, holding: publicKey)?.file.credentialId
    }

    /// Records `id` (nil removes it) in the key file under `name` when that file holds `publicKey`, replacing the file
    /// atomically; the sealed key is copied as it is.
    package func setCredentialID(_ id: String?, forKeyNamed name: String, publicKey: P256.PublicKey) async throws {
        guard let found = try readKeyFile(name, holding: publicKey), found.file.credentialId != id else { return }
        var file = found.file
        file.credentialId = id
        try write(file, to: found.path)
    }

    /// The key file under `name` and its path, when there is one and it holds `publicKey`.
    private func readKeyFile(_ name: String, holding publicKey: P256.PublicKey) throws -> (file: KeyFile, path: String)? {
        let path = try keyPath(name)
        guard try SecureFile.prepareDirectory(directory, create: false), let bytes = try SecureFile.read(path) else {
            return nil
        }
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: Data(bytes)), file.format == Self.format,
              file.name == name
        else { throw KeyStoreError(.corrupted, "\(path) is not an Assent key file") }
        return file.publicKey == Base64.encode(publicKey.spkiDER) ? (file, path) : nil
    }

    // MARK: Sealing

    private static let format = "assent-key-v1"
    private static let secretFormat = "assent-secret-v1"
    private static let kdfAlgorithm = "PBKDF2-HMAC-SHA256"
    private static let keyFileName = "keystore.secret"
    private static let maximumIterations = 10_000_000

    private func keyPath(_ name: String) throws -> String {
        guard KeyName.isValid(name) else { throw KeyStoreError(.invalidName, "invalid key name '\(name)'") }
        return (directory as NSString).appendingPathComponent("\(name).key")
    }

    private func secretPath(_ name: String) throws -> String {
        guard KeyName.isValid(name) else { throw KeyStoreError(.invalidName, "invalid secret name '\(name)'") }
        return (directory as NSString).appendingPathComponent("\(name).data")
    }

    private func write(_ file: KeyFile, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try SecureFile.write(Array(try encoder.encode(file)) + [0x0A], to: path)
    }

    /// `plaintext` sealed into `file` (whose header fields are already set): salt, nonce, ciphertext, tag.
    private func seal(_ plaintext: [UInt8], into file: KeyFile) throws -> KeyFile {
        var file = file
        let sealingKey: [UInt8]
        if let passphrase {
            let salt = SecureRandom.bytes(16)
            file.kdf = KeyFile.KDF(algorithm: Self.kdfAlgorithm, iterations: iterations, salt: Base64.encode(salt))
            sealingKey = try derive(passphrase, salt: salt, iterations: iterations)
        } else {
            sealingKey = try keyFileSecret(create: true)
        }
        let nonce = SecureRandom.bytes(12)
        let sealed = try AES.GCM.seal(plaintext, key: sealingKey, nonce: nonce,
                                      authenticating: file.associatedData)
        file.nonce = Base64.encode(nonce)
        file.ciphertext = Base64.encode(sealed.ciphertext)
        file.tag = Base64.encode(sealed.tag)
        return file
    }

    private func open(_ file: KeyFile, name: String, path: String) throws -> SoftwareSigningKey {
        guard file.format == Self.format, file.name == name, let spki = Base64.decodeStrict(file.publicKey),
              let publicKey = try? P256.PublicKey(spkiDER: spki)
        else { throw KeyStoreError(.corrupted, "\(path) is malformed") }
        var policy = KeyAccessPolicy(userPresenceRequired: file.userPresenceRequired)
        if file.userAuthenticationRequired == true {
            guard let timeout = file.timeout, timeout >= 0, let type = file.authorizationType.flatMap(AuthorizationType.init)
            else { throw KeyStoreError(.corrupted, "\(path) has an unusable access policy") }
            policy.userAuthenticationRequired = true
            policy.timeout = timeout
            policy.authorizationType = type
        }
        let scalar = try unseal(file, path: path)
        guard let privateKey = try? P256.PrivateKey(rawRepresentation: scalar), privateKey.publicKey == publicKey else {
            throw KeyStoreError(.corrupted, "the key in \(path) does not match its public key")
        }
        return SoftwareSigningKey(privateKey: privateKey, accessPolicy: policy)
    }

    /// The plaintext sealed in `file`.
    private func unseal(_ file: KeyFile, path: String) throws -> [UInt8] {
        guard let nonce = Base64.decodeStrict(file.nonce), let ciphertext = Base64.decodeStrict(file.ciphertext),
              let tag = Base64.decodeStrict(file.tag)
        else { throw KeyStoreError(.corrupted, "\(path) is malformed") }
        let sealingKey: [UInt8]
        switch (file.protection, passphrase) {
        // The three passphrase refusals name the key, not its absolute path (a person reads them; the path says
        // nothing about what to do), and say what to do.
        case (.passphrase, nil):
            throw KeyStoreError(
                .passphraseRequired,
                "“\(file.name)” is sealed under a passphrase and none was given: open the store with that passphrase")
        case (.keyfile, .some):
            throw KeyStoreError(
                .protectionMismatch,
                "“\(file.name)” was stored without a passphrase but one was given: open the store without a passphrase")
        case (.passphrase, .some(let passphrase)):
            guard let kdf = file.kdf, kdf.algorithm == Self.kdfAlgorithm,
                  (1...Self.maximumIterations).contains(kdf.iterations), let salt = Base64.decodeStrict(kdf.salt)
            else { throw KeyStoreError(.corrupted, "\(path) has unusable key-derivation parameters") }
            sealingKey = try derive(passphrase, salt: salt, iterations: kdf.iterations)
        case (.keyfile, nil):
            sealingKey = try keyFileSecret(create: false)
        }
        do {
            return try AES.GCM.open(ciphertext, tag: tag, key: sealingKey, nonce: nonce, authenticating: file.associatedData)
        } catch {
            if file.protection == .passphrase {
                throw KeyStoreError(
                    .wrongPassphrase,
                    "the passphrase given does not open “\(file.name)”: open the store with the passphrase it was stored with")
            }
            throw KeyStoreError(.corrupted, "the key in \(path) does not open with \(Self.keyFileName)")
        }
    }

    private func derive(_ passphrase: [UInt8], salt: [UInt8], iterations: Int) throws -> [UInt8] {
        let cacheKey = "\(Base64.encode(salt)):\(iterations)"
        if let known = derivedKeys.withLock({ $0[cacheKey] }) { return known }
        let key = try PBKDF2.deriveSHA256(password: passphrase, salt: salt, iterations: iterations, outputByteCount: 32)
        derivedKeys.withLock { $0[cacheKey] = key }
        return key
    }

    /// The random key-file secret, created (first writer wins) when `create` is set.
    private func keyFileSecret(create: Bool) throws -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent(Self.keyFileName)
        if let existing = try SecureFile.read(path) {
            guard existing.count == 32 else { throw KeyStoreError(.corrupted, "\(path) is not a 32-byte key") }
            return existing
        }
        guard create else { throw KeyStoreError(.corrupted, "\(path) is missing, so no key in \(directory) can be opened") }
        let secret = SecureRandom.bytes(32)
        if try SecureFile.write(secret, to: path, replace: false) { return secret }
        return try keyFileSecret(create: false)
    }
}

extension FileKeyStore: CredentialIDStore {}
