import Foundation

/// A DER writer (X.690 distinguished encoding) for what the test attestation authority builds: certificates, their
/// extensions, Android's KeyDescription and a PKCS#8 key. Every function returns one whole element.
///
/// Decisions: lengths in their shortest form, INTEGERs minimal, SET OF sorted by encoding (DER's rule), so what it writes
/// is what ``DERReader`` (strict) reads back; no general-purpose object model, since the writers are few and fixed.
package enum DERWriter {
    /// An element with `tagClass`, `constructed` and tag `number` (high-tag-number form above 30) around `content`.
    package static func element(
        _ tagClass: DERNode.TagClass, constructed: Bool, number: UInt32, _ content: [UInt8]
    ) -> [UInt8] {
        let leading = tagClass.rawValue << 6 | (constructed ? 0x20 : 0)
        let identifier = number < 31 ? [leading | UInt8(number)] : [leading | 0x1f] + base128(UInt64(number))
        return identifier + length(content.count) + content
    }

    /// `node` written back as it was read (tag, length, content).
    package static func element(_ node: DERNode) -> [UInt8] {
        element(node.tagClass, constructed: node.constructed, number: node.tagNumber, node.content)
    }

    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    private static func universal(_ number: UInt32, _ content: [UInt8]) -> [UInt8] {
        element(.universal, constructed: number == DERNode.sequence || number == DERNode.set, number: number, content)
    }

    /// SEQUENCE of `items` (each a whole element), in order.
    package static func sequence(_ items: [[UInt8]]) -> [UInt8] {
        universal(DERNode.sequence, items.flatMap { $0 })
    }

    /// SET OF `items`, sorted by their encodings as DER requires.
    package static func set(_ items: [[UInt8]]) -> [UInt8] {
        universal(DERNode.set, items.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// INTEGER `value`, minimal two's complement.
    package static func integer(_ value: Int64) -> [UInt8] {
        universal(DERNode.integer, minimal(withUnsafeBytes(of: value.bigEndian, Array.init)))
    }

    /// INTEGER of the unsigned big-endian `magnitude` (a serial number), minimal and non-negative.
    package static func integer(unsigned magnitude: [UInt8]) -> [UInt8] {
        universal(DERNode.integer, minimal([0] + magnitude))
    }

    /// ENUMERATED `value`.
    package static func enumerated(_ value: Int64) -> [UInt8] {
        universal(DERNode.enumerated, minimal(withUnsafeBytes(of: value.bigEndian, Array.init)))
    }

    /// BOOLEAN (`ff` for true, as DER requires).
    package static func boolean(_ value: Bool) -> [UInt8] {
        universal(DERNode.boolean, [value ? 0xff : 0x00])
    }

    /// OCTET STRING.
    package static func octetString(_ bytes: [UInt8]) -> [UInt8] {
        universal(DERNode.octetString, bytes)
    }

    /// BIT STRING of whole bytes (no unused bits), e.g. a signature or a public point.
    package static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] {
        universal(3, [unusedBits] + bytes)
    }

    /// UTF8String.
    package static func utf8String(_ text: String) -> [UInt8] {
        universal(12, Array(text.utf8))
    }

    /// OBJECT IDENTIFIER from its dotted form (`1.2.840.10045.4.3.2`); at least two arcs.
    package static func objectIdentifier(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        precondition(arcs.count >= 2 && arcs[0] <= 2, "an OID needs two arcs: \(dotted)")
        return universal(DERNode.objectIdentifier, ([arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2)).flatMap(base128))
    }

    /// `value` in base 128, most significant group first, every byte but the last with its high bit set (high tag
    /// numbers and OID arcs).
    private static func base128(_ value: UInt64) -> [UInt8] {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.insert(UInt8(rest & 0x7f) | (digits.isEmpty ? 0 : 0x80), at: 0)
            rest >>= 7
        } while rest > 0
        return digits
    }

    /// A context-specific constructed `[number] EXPLICIT` around one element.
    package static func explicit(_ number: UInt32, _ inner: [UInt8]) -> [UInt8] {
        element(.contextSpecific, constructed: true, number: number, inner)
    }

    /// UTCTime (years 1950–2049) or GeneralizedTime (otherwise) of `seconds` since the epoch, in UTC, as RFC 5280
    /// requires of certificate validity.
    package static func time(_ seconds: Int64) -> [UInt8] {
        var moment = time_t(seconds)
        var parts = tm()
        gmtime_r(&moment, &parts)
        let year = Int(parts.tm_year) + 1900
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = two(parts.tm_mon + 1) + two(parts.tm_mday) + two(parts.tm_hour) + two(parts.tm_min) + two(parts.tm_sec) + "Z"
        if (1950...2049).contains(year) { return universal(23, Array((two(Int32(year % 100)) + clock).utf8)) }
        return universal(24, Array((String(year) + clock).utf8))
    }

    /// Big-endian two's complement without redundant leading `00`/`ff` bytes.
    private static func minimal(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes[...]
        while bytes.count > 1,
              (bytes[bytes.startIndex] == 0 && bytes[bytes.startIndex + 1] & 0x80 == 0)
                || (bytes[bytes.startIndex] == 0xff && bytes[bytes.startIndex + 1] & 0x80 != 0) {
            bytes = bytes.dropFirst()
        }
        return Array(bytes)
    }
}
