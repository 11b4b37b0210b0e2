internal import COpenSSL

extension P256.PrivateKey {
    /// Imports a P-256 key from PKCS#8 `PrivateKeyInfo` DER (what an Apple `.p8` file holds, PEM-armoured).
    ///
    /// - Throws: `CryptoError.invalidKey` when the bytes are not a PKCS#8 EC key on P-256.
    public convenience init(pkcs8DER der: [UInt8]) throws {
        let key = try PKCS8.key(der)
        guard PKCS8.isA(key, "EC") else { throw CryptoError(.invalidKey, "PKCS#8 key is not an EC key") }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        let ok = name.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_utf8_string_param(key.pointer, OSSL_PKEY_PARAM_GROUP_NAME, $0.baseAddress, $0.count, &length)
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard ok == 1, group == "prime256v1" || group == "P-256" else {
            CryptoError.clearOpenSSLErrors()
            throw CryptoError(.invalidKey, "PKCS#8 EC key is not on P-256")
        }
        var bignum: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, OSSL_PKEY_PARAM_PRIV_KEY, &bignum) == 1, let bignum else {
            throw CryptoError.openSSL("PKCS#8 EC private scalar", code: .invalidKey)
        }
        let owned = SecretBigNumber(taking: bignum)
        var scalar = [UInt8](repeating: 0, count: P256.coordinateByteCount)
        let written = scalar.withUnsafeMutableBufferPointer {
            BN_bn2binpad(owned.pointer, $0.baseAddress, Int32($0.count))
        }
        guard written == Int32(P256.coordinateByteCount) else {
            throw CryptoError.openSSL("BN_bn2binpad", code: .invalidKey)
        }
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
