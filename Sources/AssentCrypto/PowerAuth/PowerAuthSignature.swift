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
        switch format {
        case .base64:
            return Base64.encode(components.flatMap { $0.suffix(16) })
        case .decimal(let length):
            guard PowerAuthSignatureFormat.componentLengths.contains(length) else {
                throw CryptoError(.invalidInput, "decimal component length must be 4...8, got \(length)")
            }
            var modulus: UInt32 = 1
            for _ in 0..<length { modulus *= 10 }
            return components.map { component -> String in
                let tail = component.suffix(4)
                let value = tail.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
                let digits = String(value % modulus)
                return String(repeating: "0", count: length - digits.count) + digits
            }.joined(separator: "-")
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
    /// of them) and returns the distance of the first whose signature equals `signature` (compared in constant time),
    /// with the counter value that follows the match — the server's new `CTR_DATA`. Nil when none matches.
    ///
    /// - Throws: as ``compute(type:keys:counterData:data:format:)``.
    public static func match(
        _ signature: String, type: PowerAuthSignatureType, keys: PowerAuthSignatureKeys, counterData: [UInt8],
        data: [UInt8], format: PowerAuthSignatureFormat = .base64, lookAhead: Int = PowerAuth.defaultLookAhead
    ) throws -> (distance: Int, nextCounterData: [UInt8])? {
        let chain = try keys.keys(for: type)
        guard counterData.count == PowerAuth.keyByteCount else {
            throw CryptoError(.invalidInput, "CTR_DATA must be 16 bytes, got \(counterData.count)")
        }
        let hmac = PowerAuthHMAC()
        // Base64 signatures are compared as bytes (decoded once), decimal ones as text.
        let providedBytes: [UInt8]?
        if case .base64 = format {
            guard let decoded = Base64.decodeStrict(signature), decoded.count == 16 * chain.count else { return nil }
            providedBytes = decoded
        } else {
            providedBytes = nil
        }
        let providedText = Array(signature.utf8)
        var value = counterData
        for distance in 0..<max(0, lookAhead) {
            let components = components(chain: chain, counterData: value, data: data, hmac: hmac)
            let matches: Bool
            if let providedBytes {
                matches = ConstantTime.equals(components.flatMap { $0.suffix(16) }, providedBytes)
            } else {
                matches = ConstantTime.equals(Array(try self.format(components, as: format).utf8), providedText)
            }
            let following = PowerAuth.convert32Bto16B(hmac.hash(value))
            if matches {
                return (distance, following)
            }
            value = following
        }
        return nil
    }
}

extension PowerAuthSignature {
    /// The HMAC-SHA256 the look-ahead uses, exposed so tests can compare it with ``HMACSHA256``.
    package static func hmacForTesting(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        PowerAuthHMAC().authenticate(message, key: key)
    }
}
