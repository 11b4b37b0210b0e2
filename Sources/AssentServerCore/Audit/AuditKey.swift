import AssentCrypto
import Foundation

/// The key of every tenant's audit chain, derived from the server's master key with HKDF-SHA256 (its own `info`, so
/// it is independent of the secret keys and sealing keys derived from the same master key). Someone who can write
/// the database but lacks the master key cannot compute it, so cannot rewrite, remove or reorder entries unseen.
///
/// An entry's MAC is HMAC-SHA256(key, previous MAC ‖ content), where the first entry's previous MAC is 32 zero bytes
/// and content is the tenant id, sequence, time, kind, actor, subject and details, each length-prefixed
/// (``content(of:)``), so no two different entries share a content.
///
/// Each master key ring version has its own audit key. An entry is MAC'd with the current version's; a MAC under
/// version 1 is the bare 32-byte HMAC (as before rings existed), under version N > 1 it is N (4 bytes, big-endian)
/// followed by the HMAC, so the verifier knows which key to use. Audit keys stay verify-only forever: a retired
/// version's key still verifies the entries it made. ``AuditChain/verify(_:tenantID:key:)`` refuses a chain whose
/// versions go backwards, so an old (perhaps leaked) version cannot append after a newer one.
package struct AuditKey: Sendable {
    private let keys: MasterKeys

    /// The previous MAC of a chain's first entry.
    package static let genesis = [UInt8](repeating: 0, count: 32)

    /// The audit key derived from the 32-byte `masterKey` (a ring of one).
    package init(masterKey: [UInt8]) {
        keys = MasterKeys(MasterKeyRing(single: masterKey))
    }

    /// The audit keys of every version of the master key ring `keys`.
    package init(keys: MasterKeys) {
        self.keys = keys
    }

    private static func key(_ masterKey: [UInt8]) -> [UInt8] {
        // HKDF with a 32-byte output cannot fail.
        let key = (try? HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: Array("assent audit".utf8), info: Array("assent audit chain v1".utf8),
            outputByteCount: 32)) ?? []
        precondition(key.count == 32, "HKDF-SHA256 did not derive the audit key")
        return key
    }

    /// The ring version a MAC was made with; nil when it has neither form.
    package static func ringVersion(ofMAC mac: [UInt8]) -> Int? {
        switch mac.count {
        case 32: return 1
        case 36:
            let version = mac.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            return version > 1 ? version : nil
        default: return nil
        }
    }

    /// The entry `event` becomes as number `sequence` after an entry whose MAC is `previous`.
    package func seal(_ event: AuditEvent, sequence: Int64, previous: [UInt8]) -> AuditEntry {
        var entry = AuditEntry(
            tenantID: event.tenantID, sequence: sequence, at: event.at, kind: event.kind, actor: event.actor,
            subject: event.subject, detailsJSON: event.detailsJSON, mac: [])
        entry.mac = mac(of: entry, previous: previous)
        return entry
    }

    /// The MAC of `entry` after `previous` under the current ring version — read again first when `previous` was
    /// made under a version this ring lacks, so an instance that has not reloaded yet does not step back a version;
    /// `entry.mac` is not read.
    package func mac(of entry: AuditEntry, previous: [UInt8]) -> [UInt8] {
        let ring = keys.ring(having: Self.ringVersion(ofMAC: previous) ?? 1)
        return Self.mac(of: entry, previous: previous, version: ring.current, masterKey: ring.currentKey)
    }

    private static func mac(of entry: AuditEntry, previous: [UInt8], version: Int, masterKey: [UInt8]) -> [UInt8] {
        let hmac = HMACSHA256.authenticate(previous + content(of: entry), key: key(masterKey))
        return version == 1 ? hmac : (0..<4).reversed().map { UInt8(truncatingIfNeeded: version >> ($0 * 8)) } + hmac
    }

    /// Whether `entry.mac` is the MAC of `entry` after `previous` under the ring version it names, retired or not
    /// (compared in constant time).
    package func isValid(_ entry: AuditEntry, previous: [UInt8]) -> Bool {
        guard let version = Self.ringVersion(ofMAC: entry.mac),
              let masterKey = keys.ring(having: version).auditKey(version)
        else { return false }
        return ConstantTime.equals(entry.mac, Self.mac(of: entry, previous: previous, version: version, masterKey: masterKey))
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
