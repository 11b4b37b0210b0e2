import AssentCrypto
import Foundation

/// Where the activation lives in the ``KeyStore``, and the small crypto steps that open its protected keys.
extension AssentPowerAuth {
    static let activationSecretName = "assent_powerauth_activation"
    static let deviceKeySecretName = "assent_powerauth_device_key"
    static let biometrySecretName = "assent_powerauth_biometry_unlock"
    static let zeroIV = [UInt8](repeating: 0, count: 16)

    func loadData() async throws(ClientFailure) -> ActivationData? {
        guard let bytes = try await readSecret(Self.activationSecretName) else { return nil }
        guard let data = try? JSONDecoder().decode(ActivationData.self, from: Data(bytes)) else {
            throw ClientFailure("The stored activation is damaged.", AssentErrorCode.activationDataInvalid)
        }
        return data
    }

    func requireData() async throws(ClientFailure) -> ActivationData {
        guard let data = try await loadData() else {
            throw ClientFailure("This device has no activation; call createActivation first.", AssentErrorCode.missingActivation)
        }
        return data
    }

    func save(_ data: ActivationData) async throws(ClientFailure) {
        try await writeSecret(Array(try ClientAPI.encode(data)), Self.activationSecretName)
    }

    func loadBiometryItem() async throws(ClientFailure) -> BiometryUnlockItem? {
        guard let bytes = try await readSecret(Self.biometrySecretName) else { return nil }
        return try? JSONDecoder().decode(BiometryUnlockItem.self, from: Data(bytes))
    }

    func saveBiometryItem(_ item: BiometryUnlockItem) async throws(ClientFailure) {
        try await writeSecret(Array(try ClientAPI.encode(item)), Self.biometrySecretName)
    }

    /// The device-related key that protects the possession and transport keys (iOS derives it from the vendor
    /// identifier; here it is 16 random bytes kept in the key store), created when `create` is set.
    func deviceRelatedKey(create: Bool) async throws(ClientFailure) -> [UInt8] {
        if let existing = try await readSecret(Self.deviceKeySecretName), existing.count == 16 { return existing }
        guard create else {
            throw ClientFailure("The device-related key is missing; the activation cannot be used.", AssentErrorCode.activationDataInvalid)
        }
        let key = SecureRandom.bytes(16)
        try await writeSecret(key, Self.deviceKeySecretName)
        return key
    }

    func readSecret(_ name: String) async throws(ClientFailure) -> [UInt8]? {
        do {
            return try await keyStore.loadSecret(named: name)
        } catch {
            throw ClientFailure("The key store could not read the activation: \(KeyStoreError.text(error))", AssentErrorCode.keyStoreError)
        }
    }

    func writeSecret(_ bytes: [UInt8], _ name: String) async throws(ClientFailure) {
        do {
            try await keyStore.storeSecret(bytes, named: name)
        } catch {
            throw ClientFailure("The key store could not save the activation: \(KeyStoreError.text(error))", AssentErrorCode.keyStoreError)
        }
    }

    func deleteSecret(_ name: String) async throws(ClientFailure) {
        do {
            try await keyStore.deleteSecret(named: name)
        } catch {
            throw ClientFailure("The key store could not delete \(name): \(KeyStoreError.text(error))", AssentErrorCode.keyStoreError)
        }
    }

    /// Runs a crypto step, turning its failure into `activation_data_invalid`.
    static func crypto<T>(_ what: String, _ body: () throws -> T) throws(ClientFailure) -> T {
        do {
            return try body()
        } catch {
            throw ClientFailure("\(what): \(error)", AssentErrorCode.activationDataInvalid)
        }
    }

    static func decode(_ base64: String, _ what: String) throws(ClientFailure) -> [UInt8] {
        guard let bytes = Base64.decodeStrict(base64) else {
            throw ClientFailure("The stored \(what) is not Base64.", AssentErrorCode.activationDataInvalid)
        }
        return bytes
    }

    /// `AES-128-CBC-NoPad(key, IV 0, value)` and back: the one-block wrapping of 16-byte factor keys.
    static func wrap(_ value: [UInt8], key: [UInt8]) throws(ClientFailure) -> [UInt8] {
        try crypto("Cannot protect a key") { try AES.CBC.encrypt(value, key: key, iv: zeroIV, padding: false) }
    }

    static func unwrap(_ value: [UInt8], key: [UInt8]) throws(ClientFailure) -> [UInt8] {
        try crypto("Cannot open a protected key") { try AES.CBC.decrypt(value, key: key, iv: zeroIV, padding: false) }
    }
}
