import AssentCrypto

/// Whether `signature` (base64 DER) verifies over `message` under `publicKey` (base64 SPKI).
func verifies(signature: String?, message: String, publicKey: String?) -> Bool {
    guard let signature, let publicKey, let der = Base64.decodeStrict(signature), let spki = Base64.decodeStrict(publicKey),
          let key = try? P256.PublicKey(spkiDER: spki)
    else { return false }
    return key.isValidSignature(der, for: Array(message.utf8))
}
