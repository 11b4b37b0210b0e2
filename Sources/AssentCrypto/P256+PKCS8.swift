extension P256.PrivateKey {
    /// Imports a P-256 key from PKCS#8 `PrivateKeyInfo` DER (what an Apple `.p8` file holds, PEM-armoured).
    ///
    /// - Throws: `CryptoError.invalidKey` when the bytes are not a PKCS#8 EC key on P-256.
    public convenience init(pkcs8DER der: [UInt8]) throws {
        guard !der.isEmpty, der.count <= 16 * 1024 else {
            throw CryptoError(.invalidKey, "PKCS#8 key must be 1 to 16384 bytes, got \(der.count)")
        }
        let scalar = try Primitives.pkcs8P256Scalar(der)
        try self.init(rawRepresentation: scalar)
    }

    /// Imports a P-256 key from a PEM `-----BEGIN PRIVATE KEY-----` block (an Apple `.p8` file).
    ///
    /// - Throws: `CryptoError.invalidKey`.
    public convenience init(pkcs8PEM text: String) throws {
        guard let der = PEM.der(from: text, label: "PRIVATE KEY") else {
            throw CryptoError(.invalidKey, "no PEM PRIVATE KEY block")
        }
        try self.init(pkcs8DER: der)
    }
}
