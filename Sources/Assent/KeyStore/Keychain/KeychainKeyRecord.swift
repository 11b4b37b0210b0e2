import Foundation

/// What a key's Keychain item holds: where the key lives, its policy, and the key material (a Secure Enclave key's
/// `dataRepresentation`, or a software key's private scalar), as JSON.
struct KeychainKeyRecord: Codable, Sendable {
    /// The record's layout, for future changes.
    static let currentVersion = 1

    var version: Int
    var protection: KeyProtection
    var accessPolicy: KeyAccessPolicy
    /// Base64 of the key material.
    var keyData: String

    func encoded() throws -> [UInt8] {
        Array(try JSONEncoder().encode(self))
    }

    static func decode(_ bytes: [UInt8], name: String) throws(KeyStoreError) -> KeychainKeyRecord {
        guard let record = try? JSONDecoder().decode(KeychainKeyRecord.self, from: Data(bytes)),
              record.version == currentVersion
        else { throw KeyStoreError(.corrupted, "the Keychain item of key \(name) is not an Assent key record") }
        return record
    }
}
