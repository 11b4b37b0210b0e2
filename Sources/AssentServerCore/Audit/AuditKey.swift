import AssentCrypto
import Foundation

/// The key of every tenant's audit chain, derived from the server's master key with HKDF-SHA256 (its own `info`, so
/// it is independent of the secret keys and sealing keys derived from the same master key). Someone who can write
/// the database but lacks the master key cannot compute it, so cannot rewrite, remove or reorder entries unseen.
///
/// An entry's MAC is HMAC-SHA256(key, previous MAC ‖ content), where the first entry's previous MAC is 32 zero bytes
/// and content is the tenant id, sequence, time, kind, actor, subject and details, each length-prefixed
/// (``content(of:)``), so no two different entries share a content.
package struct AuditKey: Sendable {
    private let key: [UInt8]

    /// The previous MAC of a chain's first entry.
    package static let genesis = [UInt8](repeating: 0, count: 32)

    /// The audit key derived from the 32-byte `masterKey`.
    package init(masterKey: [UInt8]) {
        // HKDF with a 32-byte output cannot fail.
        key = (try? HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: Array("assent audit".utf8), info: Array("assent audit chain v1".utf8),
            outputByteCount: 32)) ?? []
        precondition(key.count == 32, "HKDF-SHA256 did not derive the audit key")
    }

    /// The entry `event` becomes as number `sequence` after an entry whose MAC is `previous`.
    package func seal(_ event: AuditEvent, sequence: Int64, previous: [UInt8]) -> AuditEntry {
        var entry = AuditEntry(
            tenantID: event.tenantID, sequence: sequence, at: event.at, kind: event.kind, actor: event.actor,
            subject: event.subject, detailsJSON: event.detailsJSON, mac: [])
        entry.mac = mac(of: entry, previous: previous)
        return entry
    }

    /// HMAC-SHA256(key, previous ‖ content of `entry`); `entry.mac` is not read.
    package func mac(of entry: AuditEntry, previous: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticate(previous + Self.content(of: entry), key: key)
    }

    /// Whether `entry.mac` is the MAC of `entry` after `previous` (compared in constant time).
    package func isValid(_ entry: AuditEntry, previous: [UInt8]) -> Bool {
        ConstantTime.equals(entry.mac, mac(of: entry, previous: previous))
    }

    /// The canonical bytes of an entry: each field as a 4-byte big-endian length and its UTF-8 bytes.
    static func content(of entry: AuditEntry) -> [UInt8] {
        var bytes: [UInt8] = Array("assent-audit-v1".utf8)
        for field in [
            entry.tenantID, String(entry.sequence), String(entry.at), entry.kind.rawValue, entry.actor, entry.subject,
            entry.detailsJSON,
        ] {
            let utf8 = Array(field.utf8)
            let count = UInt32(utf8.count)
            bytes += [UInt8(count >> 24), UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8),
                      UInt8(truncatingIfNeeded: count)]
            bytes += utf8
        }
        return bytes
    }
}
