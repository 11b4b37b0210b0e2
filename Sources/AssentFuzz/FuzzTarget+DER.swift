import AssentAttestation

extension FuzzTarget {
    /// DER as certificates and Android's KeyDescription carry it: the reader either refuses or returns elements, every
    /// element is walked with every accessor, and the bytes are also read as a KeyDescription.
    static let der = FuzzTarget(name: "der") { bytes in
        if let node = try? DERReader.parse(bytes) {
            walk(node, budget: 10_000)
        }
        _ = try? KeyDescription(der: bytes)
    }

    private static func walk(_ node: DERNode, budget: Int) {
        _ = try? node.integer()
        _ = try? node.integerBytes()
        _ = try? node.enumerated()
        _ = try? node.boolean()
        _ = try? node.octetString()
        _ = try? node.objectIdentifier()
        _ = try? node.explicit(node.tagNumber)
        guard budget > 0, node.constructed, let children = try? node.children() else { return }
        for child in children { walk(child, budget: budget / max(1, children.count) - 1) }
    }
}
