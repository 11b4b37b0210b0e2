/// The factor keys a signature may use: `KEY_SIGNATURE_POSSESSION` always, the knowledge and biometry keys when the
/// signer has them. Each key is 16 bytes.
public struct PowerAuthSignatureKeys: Sendable, Hashable {
    /// `KEY_SIGNATURE_POSSESSION`.
    public var possession: [UInt8]?
    /// `KEY_SIGNATURE_KNOWLEDGE`, or nil when not at hand (the password was not given).
    public var knowledge: [UInt8]?
    /// `KEY_SIGNATURE_BIOMETRY`, or nil when not at hand.
    public var biometry: [UInt8]?

    /// Keys for the factors at hand.
    public init(possession: [UInt8]?, knowledge: [UInt8]? = nil, biometry: [UInt8]? = nil) {
        self.possession = possession
        self.knowledge = knowledge
        self.biometry = biometry
    }

    /// The keys of `type`, in chain order.
    ///
    /// - Throws: `CryptoError.invalidKey` when a key the type needs is missing or not 16 bytes.
    public func keys(for type: PowerAuthSignatureType) throws -> [[UInt8]] {
        try type.factors.map { factor in
            let key: [UInt8]?
            switch factor {
            case .possession: key = possession
            case .knowledge: key = knowledge
            case .biometry: key = biometry
            }
            guard let key else {
                throw CryptoError(.invalidKey, "a \(type.rawValue) signature needs the \(factor.rawValue) key")
            }
            guard key.count == PowerAuth.keyByteCount else {
                throw CryptoError(.invalidKey, "the \(factor.rawValue) key must be 16 bytes, got \(key.count)")
            }
            return key
        }
    }
}
