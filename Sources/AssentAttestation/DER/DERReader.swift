/// A strict DER reader (X.690 distinguished encoding) for what attestation needs: SEQUENCE, SET, INTEGER, OCTET
/// STRING, OBJECT IDENTIFIER, BOOLEAN, ENUMERATED and context tags, explicit and implicit, in low- and high-tag-number
/// form.
///
/// Decisions: definite lengths only, in their shortest form (DER has one encoding per value, so two readers cannot
/// disagree); lengths are checked against the bytes left before anything is copied; nesting is bounded
/// (``maximumDepth``); a tag number above 2^28 is refused. Elements are read lazily: ``DERNode/children()`` parses
/// one level when asked.
package enum DERReader {
    /// Elements nested deeper than this are refused (a KeyDescription needs 7).
    package static let maximumDepth = 32

    /// Exactly one element spanning all of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(AttestationError) -> DERNode {
        let nodes = try elements(bytes, depth: 0)
        guard nodes.count == 1 else { throw AttestationError(.malformed, "DER: \(nodes.count) elements where one was expected") }
        return nodes[0]
    }

    /// The consecutive elements that make up `bytes` exactly.
    static func elements(_ bytes: [UInt8], depth: Int) throws(AttestationError) -> [DERNode] {
        guard depth <= maximumDepth else { throw AttestationError(.malformed, "DER: nested too deep") }
        var nodes: [DERNode] = []
        var position = 0
        func next() throws(AttestationError) -> UInt8 {
            guard position < bytes.count else { throw AttestationError(.malformed, "DER: truncated") }
            defer { position += 1 }
            return bytes[position]
        }
        while position < bytes.count {
            let identifier = try next()
            var number = UInt32(identifier & 0x1f)
            if number == 0x1f {
                number = 0
                var first = true
                while true {
                    let byte = try next()
                    guard !(first && byte == 0x80) else { throw AttestationError(.malformed, "DER: a tag number is not minimal") }
                    guard number >> 21 == 0 else { throw AttestationError(.malformed, "DER: a tag number is too large") }
                    number = number << 7 | UInt32(byte & 0x7f)
                    first = false
                    if byte & 0x80 == 0 { break }
                }
                guard number >= 31 else { throw AttestationError(.malformed, "DER: a high-form tag below 31") }
            }
            let lengthByte = try next()
            var length = 0
            if lengthByte < 0x80 {
                length = Int(lengthByte)
            } else {
                let count = Int(lengthByte & 0x7f)
                guard count >= 1, count <= 4 else { throw AttestationError(.malformed, "DER: an unsupported length form") }
                for _ in 0..<count { length = length << 8 | Int(try next()) }
                guard length >= 0x80, length >> (8 * (count - 1)) != 0 else {
                    throw AttestationError(.malformed, "DER: a length is not in its shortest form")
                }
            }
            guard length <= bytes.count - position else { throw AttestationError(.malformed, "DER: a length runs past the end") }
            nodes.append(DERNode(
                tagClass: DERNode.TagClass(rawValue: identifier >> 6)!,
                constructed: identifier & 0x20 != 0,
                tagNumber: number,
                content: Array(bytes[position..<position + length]),
                depth: depth
            ))
            position += length
        }
        return nodes
    }
}
