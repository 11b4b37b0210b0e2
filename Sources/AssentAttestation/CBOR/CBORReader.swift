/// A strict reader of the CBOR subset App Attest needs: unsigned and negative integers, byte and text strings,
/// arrays and maps, all of definite length.
///
/// Decisions: every length is checked against the bytes left before anything is allocated (so a 4-byte header cannot
/// ask for 4 GiB); nesting is bounded (``maximumDepth``); a map's duplicate key is refused (two readers could otherwise
/// pick different values); trailing bytes after the top item are refused. Non-minimal length encodings are accepted, as
/// Apple's own objects use them (the guide sample's x5c lengths); everything else outside the subset is `malformed`.
package struct CBORReader {
    /// Containers nested deeper than this are refused (App Attest needs 3).
    package static let maximumDepth = 16

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes exactly one item that spans all of `bytes`.
    package static func decode(_ bytes: [UInt8]) throws(AttestationError) -> CBORValue {
        var reader = CBORReader(bytes)
        let value = try reader.item(depth: 0)
        guard reader.position == bytes.count else {
            throw AttestationError(.malformed, "CBOR: \(bytes.count - reader.position) bytes after the item")
        }
        return value
    }

    private mutating func byte() throws(AttestationError) -> UInt8 {
        guard position < bytes.count else { throw AttestationError(.malformed, "CBOR: truncated") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ count: UInt64) throws(AttestationError) -> [UInt8] {
        guard count <= UInt64(bytes.count - position) else {
            throw AttestationError(.malformed, "CBOR: a length of \(count) runs past the end")
        }
        let end = position + Int(count)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// The argument of an initial byte's additional information (definite only).
    private mutating func argument(_ info: UInt8) throws(AttestationError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24, 25, 26, 27:
            let width = 1 << Int(info - 24)
            var value: UInt64 = 0
            for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
            return value
        case 31: throw AttestationError(.malformed, "CBOR: indefinite lengths are not accepted")
        default: throw AttestationError(.malformed, "CBOR: reserved additional information \(info)")
        }
    }

    private mutating func item(depth: Int) throws(AttestationError) -> CBORValue {
        guard depth <= Self.maximumDepth else { throw AttestationError(.malformed, "CBOR: nested too deep") }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1f
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1: return .negative(try argument(info))
        case 2: return .bytes(try take(try argument(info)))
        case 3:
            let raw = try take(try argument(info))
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw AttestationError(.malformed, "CBOR: a text string is not UTF-8")
            }
            return .text(text)
        case 4:
            let count = try argument(info)
            // Each item takes at least one byte: a count beyond what is left is a lie, refused before reserving.
            guard count <= UInt64(bytes.count - position) else { throw AttestationError(.malformed, "CBOR: array too long") }
            var items: [CBORValue] = []
            items.reserveCapacity(Int(count))
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try argument(info)
            guard count <= UInt64(bytes.count - position) / 2 else { throw AttestationError(.malformed, "CBOR: map too long") }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(Int(count))
            var keys = Set<CBORValue>()
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw AttestationError(.malformed, "CBOR: a map repeats a key") }
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        default:
            throw AttestationError(.malformed, "CBOR: major type \(major) (tags, floats, simple values) is not accepted")
        }
    }
}
