import Assent
import AssentCrypto
import AssentSync
import AssentWire

/// An in-memory Keychain: generic-password items by service and account.
final class FakeKeychainItems: KeychainItems {
    private let items = AssentLock<[String: [UInt8]]>([:])

    private static func key(_ service: String, _ account: String) -> String { service + "\u{0}" + account }

    func read(service: String, account: String) throws -> [UInt8]? {
        items.withLock { $0[Self.key(service, account)] }
    }

    func write(_ data: [UInt8], service: String, account: String) throws {
        items.withLock { $0[Self.key(service, account)] = data }
    }

    func delete(service: String, account: String) throws -> Bool {
        items.withLock { $0.removeValue(forKey: Self.key(service, account)) != nil }
    }

    /// How many items exist.
    var count: Int { items.withLock { $0.count } }
}

/// A key the fake enclave made: a software key that reports itself as in the Secure Enclave.
struct FakeEnclaveKey: SigningKey {
    let privateKey: P256.PrivateKey
    let accessPolicy: KeyAccessPolicy
    var publicKey: P256.PublicKey { privateKey.publicKey }
    var userPresenceRequired: Bool { accessPolicy.userPresenceRequired }
    var protection: KeyProtection { .secureEnclave }
    func signature(for message: [UInt8]) async throws -> [UInt8] { try privateKey.signature(for: message) }
}

/// A Secure Enclave that may be absent. Its "data representation" is a marker and the scalar (a real enclave's
/// is an opaque blob), and it records the access control of every key it made.
final class FakeSecureEnclave: SecureEnclaveKeys {
    static let marker = Array("enclave:".utf8)
    let isAvailable: Bool
    private let accessControls = AssentLock<[KeychainAccessControl]>([])

    init(isAvailable: Bool) { self.isAvailable = isAvailable }

    var createdAccessControls: [KeychainAccessControl] { accessControls.withLock { $0 } }

    func createKey(access: KeychainAccessControl, accessPolicy: KeyAccessPolicy) throws -> (key: any SigningKey, data: [UInt8]) {
        precondition(isAvailable, "the store asked an absent enclave for a key")
        accessControls.withLock { $0.append(access) }
        let privateKey = P256.PrivateKey()
        return (FakeEnclaveKey(privateKey: privateKey, accessPolicy: accessPolicy), Self.marker + privateKey.rawRepresentation)
    }

    func restoreKey(data: [UInt8], accessPolicy: KeyAccessPolicy) throws -> any SigningKey {
        guard data.starts(with: Self.marker) else { throw KeyStoreError(.corrupted, "not an enclave blob") }
        return FakeEnclaveKey(privateKey: try P256.PrivateKey(rawRepresentation: Array(data.dropFirst(Self.marker.count))),
                              accessPolicy: accessPolicy)
    }
}

/// App Attest that records what it was asked and answers deterministic bytes, or fails when told to.
final class FakeAppAttestService: AppAttestService {
    struct Failure: Error {}

    let isSupported: Bool
    private let state = AssentLock<(keys: Int, attested: [(String, [UInt8])], asserted: [(String, [UInt8])], failNext: Bool)>(
        (0, [], [], false))

    init(isSupported: Bool) { self.isSupported = isSupported }

    var attested: [(String, [UInt8])] { state.withLock { $0.attested } }
    var asserted: [(String, [UInt8])] { state.withLock { $0.asserted } }
    func failNextAttestation() { state.withLock { $0.failNext = true } }

    func generateKey() async throws -> String {
        state.withLock { state in
            state.keys += 1
            return "key-\(state.keys)"
        }
    }

    func attestKey(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        let fail = state.withLock { state in
            defer { state.failNext = false }
            if !state.failNext { state.attested.append((keyId, clientDataHash)) }
            return state.failNext
        }
        if fail { throw Failure() }
        return Array("attestation of \(keyId)".utf8)
    }

    func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        state.withLock { $0.asserted.append((keyId, clientDataHash)) }
        return Array("assertion by \(keyId)".utf8) + clientDataHash
    }
}
