/// PowerAuth 3.x multi-factor request signatures (`SignatureUtils.computePowerAuthSignatureComponents`).
public enum PowerAuthSignature: Sendable {
    /// The 32-byte HMAC component per factor key of `type` for counter value `counterData` over `data` (the
    /// normalized request data, ``PowerAuthRequestData``).
    ///
    /// Component `i` is `HMAC(dk_i, data)` where `dk_i` starts as `HMAC(keys[i], CTR_DATA)` and is re-keyed for every
    /// earlier position `j < i` with `HMAC(keys[j+1], CTR_DATA)` — note `j+1`, as the reference code and the vectors do.
    ///
    /// - Throws: `CryptoError.invalidKey` when a key of `type` is missing or not 16 bytes; `.invalidInput` unless
    ///   `counterData` is 16 bytes.
    public static func components(
        type: PowerAuthSignatureType, keys: PowerAuthSignatureKeys, counterData: [UInt8], data: [UInt8]
    ) throws -> [[UInt8]] {
        let chain = try keys.keys(for: type)
        guard counterData.count == PowerAuth.keyByteCount else {
            throw CryptoError(.invalidInput, "CTR_DATA must be 16 bytes, got \(counterData.count)")
        }
        return components(chain: chain, counterData: counterData, data: data)
    }

    /// ``components(type:keys:counterData:data:)`` with the key chain already checked.
    static func components(chain: [[UInt8]], counterData: [UInt8], data: [UInt8]) -> [[UInt8]] {
        let hmac = PowerAuthHMAC()
        return components(chain: chain, counterData: counterData, data: data, hmac: hmac)
    }

    private static func components(chain: [[UInt8]], counterData: [UInt8], data: [UInt8], hmac: borrowing PowerAuthHMAC) -> [[UInt8]] {
        // HMAC(keys[k], CTR_DATA) is used both as the start of chain k and as the re-keying key for later
        // positions; compute each once.
        let keyed = chain.map { hmac.authenticate(counterData, key: $0) }
        var result: [[UInt8]] = []
        result.reserveCapacity(chain.count)
        for i in 0..<chain.count {
            var derived = keyed[i]
            for j in 0..<i {
                derived = hmac.authenticate(derived, key: keyed[j + 1])
            }
            result.append(hmac.authenticate(data, key: derived))
        }
        return result
    }

    /// Writes components out in `format`.
    ///
    /// - Throws: `CryptoError.invalidInput` for a decimal component length outside 4...8.
    public static func format(_ components: [[UInt8]], as format: PowerAuthSignatureFormat) throws -> String {
        let written = try self.written(components, as: format)
        switch format {
        case .base64: return Base64.encode(written.flatMap { $0 })
        case .decimal: return written.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "-")
        }
    }

    /// Each component as it appears in `format`: its last 16 bytes (Base64 form, before encoding), or its decimal
    /// digits as UTF-8 text.
    private static func written(_ components: [[UInt8]], as format: PowerAuthSignatureFormat) throws -> [[UInt8]] {
        switch format {
        case .base64:
            return components.map { Array($0.suffix(16)) }
        case .decimal(let length):
            guard PowerAuthSignatureFormat.componentLengths.contains(length) else {
                throw CryptoError(.invalidInput, "decimal component length must be 4...8, got \(length)")
            }
            var modulus: UInt32 = 1
            for _ in 0..<length { modulus *= 10 }
            return components.map { component -> [UInt8] in
                let tail = component.suffix(4)
                let value = tail.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
                let digits = String(value % modulus)
                return Array((String(repeating: "0", count: length - digits.count) + digits).utf8)
            }
        }
    }

    /// A signature split into its components as written (the inverse of ``written(_:as:)`` before comparison), or
    /// nil when it does not have `count` of them.
    private static func provided(_ signature: String, count: Int, format: PowerAuthSignatureFormat) -> [[UInt8]]? {
        switch format {
        case .base64:
            guard let decoded = Base64.decodeStrict(signature), decoded.count == 16 * count else { return nil }
            return (0..<count).map { Array(decoded[16 * $0 ..< 16 * ($0 + 1)]) }
        case .decimal:
            let groups = signature.split(separator: "-", omittingEmptySubsequences: false)
            guard groups.count == count else { return nil }
            return groups.map { Array($0.utf8) }
        }
    }

    /// The signature of `data` of `type` at counter value `counterData`, in `format`.
    ///
    /// - Throws: as ``components(type:keys:counterData:data:)`` and ``format(_:as:)``.
    public static func compute(
        type: PowerAuthSignatureType, keys: PowerAuthSignatureKeys, counterData: [UInt8], data: [UInt8],
        format: PowerAuthSignatureFormat = .base64
    ) throws -> String {
        try self.format(components(type: type, keys: keys, counterData: counterData, data: data), as: format)
    }

    /// The server's look-ahead search: tries the counter values `counterData`, `next(counterData)`, … (`lookAhead`
    /// of them). Returns the first at which every component of `signature` verifies (``PowerAuthSignatureMatch/Extent/allFactors``);
    /// failing that, for a type with possession and another factor, the first at which its possession component
    /// verifies (``PowerAuthSignatureMatch/Extent/possessionOnly``); nil when neither. Components are compared in
    /// constant time, each of them at every counter value tried.
    ///
    /// - Throws: as ``compute(type:keys:counterData:data:format:)``.
    public static func match(
        _ signature: String, type: PowerAuthSignatureType, keys: PowerAuthSignatureKeys, counterData: [UInt8],
        data: [UInt8], format: PowerAuthSignatureFormat = .base64, lookAhead: Int = PowerAuth.defaultLookAhead
    ) throws -> PowerAuthSignatureMatch? {
        let chain = try keys.keys(for: type)
        guard counterData.count == PowerAuth.keyByteCount else {
            throw CryptoError(.invalidInput, "CTR_DATA must be 16 bytes, got \(counterData.count)")
        }
        guard let provided = provided(signature, count: chain.count, format: format) else { return nil }
        // Possession is the first key of the chain, and its component depends on no other key.
        let separable = type.countsFailedAttempts
        let hmac = PowerAuthHMAC()
        var possessionOnly: PowerAuthSignatureMatch?
        var value = counterData
        for distance in 0..<max(0, lookAhead) {
            let written = try self.written(components(chain: chain, counterData: value, data: data, hmac: hmac), as: format)
            let equal = zip(written, provided).map { ConstantTime.equals($0, $1) }
            let following = PowerAuth.convert32Bto16B(hmac.hash(value))
            if !equal.contains(false) {
                return PowerAuthSignatureMatch(extent: .allFactors, distance: distance, nextCounterData: following)
            }
            // Keep searching for a full match: only a collision of the possession component could put one later.
            if separable, equal[0], possessionOnly == nil {
                possessionOnly = PowerAuthSignatureMatch(extent: .possessionOnly, distance: distance, nextCounterData: following)
            }
            value = following
        }
        return possessionOnly
    }
}

extension PowerAuthSignature {
    /// The HMAC-SHA256 the look-ahead uses, exposed so tests can compare it with ``HMACSHA256``.
    package static func hmacForTesting(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        PowerAuthHMAC().authenticate(message, key: key)
    }
}
