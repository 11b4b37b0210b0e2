/// The hash-based signature counter `CTR_DATA` (16 bytes) of PowerAuth 3.x.
public enum PowerAuthCounter: Sendable {
    /// `CTR_DATA_next = convert32Bto16B(SHA-256(CTR_DATA))`.
    public static func next(_ counterData: [UInt8]) -> [UInt8] {
        PowerAuth.convert32Bto16B(SHA256.hash(counterData))
    }

    /// `counterData` advanced `steps` times.
    public static func advance(_ counterData: [UInt8], by steps: Int) -> [UInt8] {
        var value = counterData
        for _ in 0..<max(0, steps) { value = next(value) }
        return value
    }

    /// How many ``next(_:)`` steps (0..<`limit`) lead from `counterData` to the value whose status-blob hash
    /// (`KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), CTR_DATA)`) is `hash`, or nil when none within `limit` does.
    ///
    /// - Throws: `CryptoError.invalidKey` unless `transportKey` is 16 bytes.
    public static func distance(from counterData: [UInt8], toHash hash: [UInt8], transportKey: [UInt8], limit: Int) throws -> Int? {
        let hashKey = try PowerAuth.kdf(transportKey, index: PowerAuth.KeyIndex.statusBlobCounter)
        var value = counterData
        for step in 0..<max(0, limit) {
            if ConstantTime.equals(PowerAuth.kdfInternal(hashKey, data: value), hash) { return step }
            value = next(value)
        }
        return nil
    }
}
