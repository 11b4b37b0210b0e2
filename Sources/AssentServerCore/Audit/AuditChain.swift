/// The rules of a tenant's audit chain, written once for every store: how an entry links to the one before it,
/// how a chain is verified, and how retention drops old entries behind a checkpoint.
///
/// Retention deletes entries 1…N and appends a ``AuditKind/checkpoint`` entry whose details carry N
/// (`droppedThrough`) and the MAC of entry N (`droppedMac`). The checkpoint is itself an entry of the chain, MAC'd
/// like any other, so verification can start from entry N+1 with that MAC as its predecessor: an attacker who
/// deletes more old entries leaves a first entry the latest checkpoint does not account for.
///
/// What a chain cannot show on its own: entries cut from its newest end (the rest still verifies). Compare the
/// head's sequence with an earlier reading (`assent admin audit verify` prints it) to catch that.
package enum AuditChain {
    /// The checkpoint's detail naming the last dropped sequence.
    static let droppedThrough = "droppedThrough"
    /// The checkpoint's detail carrying the last dropped entry's MAC (hex).
    static let droppedMac = "droppedMac"

    /// Checks `entries` (one tenant's, ordered by sequence): sequences without gaps, each MAC valid over the previous
    /// one, and a start accounted for — sequence 1, or the entry after the latest checkpoint's `droppedThrough`.
    package static func verify(_ entries: [AuditEntry], tenantID: String, key: AuditKey) -> AuditVerification {
        guard let first = entries.first else { return .intact(0) }
        var previous = AuditKey.genesis
        if first.sequence != 1 {
            guard let checkpoint = entries.last(where: { $0.kind == .checkpoint }),
                  let through = checkpoint.details[droppedThrough].flatMap(Int64.init),
                  let mac = checkpoint.details[droppedMac].flatMap(hexBytes)
            else {
                return .broken(entries.count, at: 1,
                               "entries 1 to \(first.sequence - 1) are missing and no checkpoint accounts for them")
            }
            guard through + 1 == first.sequence else {
                return .broken(entries.count, at: min(through + 1, first.sequence),
                               "the latest checkpoint dropped entries through \(through), but the chain starts at \(first.sequence)")
            }
            previous = mac
        }
        var expected = first.sequence
        var newestVersion = AuditKey.ringVersion(ofMAC: previous) ?? 1
        for entry in entries {
            guard entry.tenantID == tenantID else {
                return .broken(entries.count, at: entry.sequence, "entry \(entry.sequence) belongs to another tenant")
            }
            guard entry.sequence == expected else {
                return .broken(entries.count, at: expected, "entry \(expected) is missing")
            }
            guard key.isValid(entry, previous: previous) else {
                return .broken(entries.count, at: entry.sequence,
                               "entry \(entry.sequence) was changed, moved, or written without the audit key")
            }
            // A MAC under an older master key version than an earlier entry's: written with a key that had been
            // rotated away (perhaps leaked), never by a server that had the newer one.
            let version = AuditKey.ringVersion(ofMAC: entry.mac) ?? 1
            guard version >= newestVersion else {
                return .broken(entries.count, at: entry.sequence,
                               "entry \(entry.sequence) is MAC'd under master key version \(version) after an entry under version \(newestVersion)")
            }
            newestVersion = version
            previous = entry.mac
            expected += 1
        }
        return .intact(entries.count)
    }

    /// What retention does to `entries` (one tenant's whole chain, by sequence): nil when nothing is older than
    /// `before`; otherwise the last sequence to drop and the checkpoint event to append after dropping. Refuses
    /// (``AuditChainBroken``) when the chain does not verify, so retention never erases evidence of tampering.
    package static func retention(
        _ entries: [AuditEntry], tenantID: String, before: Int64, now: Int64, actor: String, key: AuditKey
    ) throws -> (dropThrough: Int64, checkpoint: AuditEvent)? {
        let verification = verify(entries, tenantID: tenantID, key: key)
        if let bad = verification.firstBadSequence {
            throw AuditChainBroken(sequence: bad, problem: verification.problem)
        }
        // Entries are appended in time order, so the old ones are a prefix; the newest entry may go too (the
        // checkpoint then becomes the only one).
        guard let last = entries.last(where: { $0.at < before }) else { return nil }
        let dropped = entries.prefix { $0.sequence <= last.sequence }.count
        let checkpoint = AuditEvent(
            tenantID: tenantID, at: now, kind: .checkpoint, actor: actor,
            details: [
                droppedThrough: String(last.sequence), droppedMac: hex(last.mac), "dropped": String(dropped),
                "before": String(before),
            ])
        return (last.sequence, checkpoint)
    }

    /// Lower-case hex.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// The bytes of lower- or upper-case hex, nil when it is not hex of whole bytes.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
