/// One DER element (X.690): its tag and its content bytes, children parsed on demand.
package struct DERNode: Sendable, Hashable {
    /// The tag's class.
    package enum TagClass: UInt8, Sendable {
        case universal = 0, application = 1, contextSpecific = 2, `private` = 3
    }

    package let tagClass: TagClass
    package let constructed: Bool
    /// The tag number (high-tag-number form decoded, e.g. 704 for KeyDescription's rootOfTrust).
    package let tagNumber: UInt32
    /// The content octets (without tag and length).
    package let content: [UInt8]
    /// How deep this node sits (the top is 0), so nested parsing stays bounded.
    let depth: Int

    // Universal tag numbers the readers below check.
    package static let boolean: UInt32 = 1, integer: UInt32 = 2, octetString: UInt32 = 4, null: UInt32 = 5,
        objectIdentifier: UInt32 = 6, enumerated: UInt32 = 10, sequence: UInt32 = 16, set: UInt32 = 17

    /// Whether this is the universal tag `number` (constructed for SEQUENCE and SET, primitive otherwise).
    package func isUniversal(_ number: UInt32) -> Bool {
        tagClass == .universal && tagNumber == number && constructed == (number == Self.sequence || number == Self.set)
    }

    /// Whether this is context-specific tag `[number]`.
    package func isContext(_ number: UInt32) -> Bool {
        tagClass == .contextSpecific && tagNumber == number
    }

    /// The elements of a constructed node, in order.
    package func children() throws(AttestationError) -> [DERNode] {
        guard constructed else { throw AttestationError(.malformed, "DER: a primitive element has no children") }
        return try DERReader.elements(content, depth: depth + 1)
    }

    /// The elements of a SEQUENCE.
    package func sequence() throws(AttestationError) -> [DERNode] {
        try expect(Self.sequence, "SEQUENCE")
        return try children()
    }

    /// The elements of a SET.
    package func set() throws(AttestationError) -> [DERNode] {
        try expect(Self.set, "SET")
        return try children()
    }

    /// The one element inside an EXPLICIT context tag `[number]`.
    package func explicit(_ number: UInt32) throws(AttestationError) -> DERNode {
        guard isContext(number), constructed else { throw AttestationError(.malformed, "DER: expected [\(number)] EXPLICIT") }
        let inner = try children()
        guard inner.count == 1 else { throw AttestationError(.malformed, "DER: [\(number)] EXPLICIT holds \(inner.count) elements") }
        return inner[0]
    }

    /// This IMPLICIT context tag `[number]` read as the universal type `universal` (same content, other tag).
    package func implicit(_ number: UInt32, as universal: UInt32) throws(AttestationError) -> DERNode {
        guard isContext(number) else { throw AttestationError(.malformed, "DER: expected [\(number)] IMPLICIT") }
        let node = DERNode(tagClass: .universal, constructed: constructed, tagNumber: universal, content: content, depth: depth)
        guard node.isUniversal(universal) else { throw AttestationError(.malformed, "DER: [\(number)] IMPLICIT has the wrong form") }
        return node
    }

    /// The bytes of an OCTET STRING.
    package func octetString() throws(AttestationError) -> [UInt8] {
        try expect(Self.octetString, "OCTET STRING")
        return content
    }

    /// A BOOLEAN (DER: 0x00 or 0xff only).
    package func boolean() throws(AttestationError) -> Bool {
        try expect(Self.boolean, "BOOLEAN")
        guard content.count == 1, content[0] == 0 || content[0] == 0xff else {
            throw AttestationError(.malformed, "DER: a BOOLEAN is not 00 or ff")
        }
        return content[0] == 0xff
    }

    /// An INTEGER that fits an `Int64`.
    package func integer() throws(AttestationError) -> Int64 {
        try expect(Self.integer, "INTEGER")
        return try Self.signedValue(content)
    }

    /// An ENUMERATED that fits an `Int64`.
    package func enumerated() throws(AttestationError) -> Int64 {
        try expect(Self.enumerated, "ENUMERATED")
        return try Self.signedValue(content)
    }

    /// The content of an INTEGER of any size (two's complement, minimal), for serial numbers.
    package func integerBytes() throws(AttestationError) -> [UInt8] {
        try expect(Self.integer, "INTEGER")
        try Self.checkMinimal(content)
        return content
    }

    /// An OBJECT IDENTIFIER in dotted form, e.g. `1.3.6.1.4.1.11129.2.1.17`.
    package func objectIdentifier() throws(AttestationError) -> String {
        try expect(Self.objectIdentifier, "OBJECT IDENTIFIER")
        guard !content.isEmpty, content.last! & 0x80 == 0 else { throw AttestationError(.malformed, "DER: a truncated OID") }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var started = false
        for byte in content {
            guard started || byte != 0x80 else { throw AttestationError(.malformed, "DER: an OID arc is not minimal") }
            guard value >> 57 == 0 else { throw AttestationError(.malformed, "DER: an OID arc is too large") }
            value = value << 7 | UInt64(byte & 0x7f)
            started = true
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
                started = false
            }
        }
        let first = min(arcs[0] / 40, 2)
        let second = arcs[0] - first * 40
        return ([first, second] + arcs.dropFirst()).map { String($0) }.joined(separator: ".")
    }

    private func expect(_ number: UInt32, _ name: String) throws(AttestationError) {
        guard isUniversal(number) else { throw AttestationError(.malformed, "DER: expected \(name)") }
    }

    private static func checkMinimal(_ content: [UInt8]) throws(AttestationError) {
        guard !content.isEmpty else { throw AttestationError(.malformed, "DER: an empty INTEGER") }
        if content.count > 1, (content[0] == 0 && content[1] & 0x80 == 0) || (content[0] == 0xff && content[1] & 0x80 != 0) {
            throw AttestationError(.malformed, "DER: an INTEGER is not minimal")
        }
    }

    private static func signedValue(_ content: [UInt8]) throws(AttestationError) -> Int64 {
        try checkMinimal(content)
        guard content.count <= 8 else { throw AttestationError(.malformed, "DER: an INTEGER does not fit 64 bits") }
        var value: Int64 = content[0] & 0x80 != 0 ? -1 : 0
        for byte in content { value = value << 8 | Int64(byte) }
        return value
    }
}
