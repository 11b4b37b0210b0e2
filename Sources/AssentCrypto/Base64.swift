/// Base64 (RFC 4648 §4) and base64url (§5) encoding and decoding.
public enum Base64: Sendable {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Marks bytes that are not base64 digits in ``decodingTable``.
    private static let invalid: UInt8 = 0xFF

    /// Which characters a decoder accepts.
    private enum Dialect {
        /// `+` `/` and `-` `_` (even mixed), and ' ' read as '+'.
        case lenient
        /// `+` `/` only.
        case standard
        /// `-` `_` only.
        case url
    }

    /// Maps an ASCII byte to its 6-bit value for the lenient dialect, or ``invalid``.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in standardAlphabet.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        table[Int(UInt8(ascii: " "))] = 62  // a '+' that arrived in a query string as a space
        return table
    }()

    /// Encodes `bytes` with the standard alphabet and `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    /// Encodes `bytes` with the URL-safe alphabet (`-`, `_`) and no padding (as JOSE requires).
    public static func encodeURL(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// Decodes leniently: accepts either alphabet (even mixed within one string), optional padding,
    /// and ' ' as '+' (a '+' turned into a space by form/query decoding).
    ///
    /// Returns nil for any other character (including line breaks), `=` anywhere but at the end, more
    /// than two `=`, padding that does not complete a 4-character group, or a length that no byte
    /// string encodes to (one leftover character). Non-zero unused bits in the last character are ignored.
    public static func decode(_ string: String) -> [UInt8]? {
        decode(Array(string.utf8), dialect: .lenient, canonical: false)
    }

    /// Decodes strictly: standard alphabet, padding required, and only the canonical encoding
    /// (unused bits zero), so `decodeStrict(s) != nil` implies `encode(decodeStrict(s)!) == s`.
    public static func decodeStrict(_ string: String) -> [UInt8]? {
        decode(Array(string.utf8), dialect: .standard, canonical: true)
    }

    /// Decodes strictly base64url as JOSE uses it (RFC 7515 §2): URL-safe alphabet, no padding,
    /// canonical encoding only, so `decodeURL(s) != nil` implies `encodeURL(decodeURL(s)!) == s`.
    public static func decodeURL(_ string: String) -> [UInt8]? {
        decode(Array(string.utf8), dialect: .url, canonical: true)
    }

    /// Decodes base64url bytes (as ``decodeURL(_:)``) without first building a `String`.
    package static func decodeURL<C: Collection<UInt8>>(utf8 characters: C) -> [UInt8]? {
        decode(Array(characters), dialect: .url, canonical: true)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        let fullGroups = bytes.count / 3
        let remainder = bytes.count % 3
        let outputCount = fullGroups * 4 + (remainder == 0 ? 0 : (padded ? 4 : remainder + 1))
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
            var o = 0
            var i = 0
            for _ in 0..<fullGroups {
                let value = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = alphabet[Int(value >> 18 & 0x3F)]
                out[o + 1] = alphabet[Int(value >> 12 & 0x3F)]
                out[o + 2] = alphabet[Int(value >> 6 & 0x3F)]
                out[o + 3] = alphabet[Int(value & 0x3F)]
                i += 3
                o += 4
            }
            if remainder > 0 {
                let value = UInt32(bytes[i]) << 16 | (remainder == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                out[o] = alphabet[Int(value >> 18 & 0x3F)]
                out[o + 1] = alphabet[Int(value >> 12 & 0x3F)]
                o += 2
                if remainder == 2 {
                    out[o] = alphabet[Int(value >> 6 & 0x3F)]
                    o += 1
                }
                if padded {
                    while o < outputCount {
                        out[o] = UInt8(ascii: "=")
                        o += 1
                    }
                }
            }
            initialized = o
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func decode(_ input: [UInt8], dialect: Dialect, canonical: Bool) -> [UInt8]? {
        // Split off trailing padding.
        var dataCount = input.count
        while dataCount > 0, input[dataCount - 1] == UInt8(ascii: "=") {
            dataCount -= 1
        }
        let paddingCount = input.count - dataCount
        switch dialect {
        case .lenient:
            guard paddingCount <= 2, paddingCount == 0 || input.count % 4 == 0 else { return nil }
        case .standard:
            guard input.count % 4 == 0, paddingCount <= 2 else { return nil }
        case .url:
            guard paddingCount == 0 else { return nil }
        }
        let leftover = dataCount % 4
        guard leftover != 1 else { return nil }

        let outputCount = dataCount / 4 * 3 + (leftover == 0 ? 0 : leftover - 1)
        var failed = false
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
            var accumulator: UInt32 = 0
            var bits = 0
            var o = 0
            for index in 0..<dataCount {
                guard let value = sextet(input[index], dialect: dialect) else {
                    failed = true
                    break
                }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out[o] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                    o += 1
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
            // Whatever is left in the accumulator are the unused low bits of the last character.
            if !failed, canonical, accumulator != 0 {
                failed = true
            }
            initialized = o
        }
        if failed { return nil }
        return output
    }

    private static func sextet(_ character: UInt8, dialect: Dialect) -> UInt8? {
        let value = decodingTable[Int(character)]
        guard value != invalid else { return nil }
        switch dialect {
        case .lenient:
            return value
        case .standard:
            // Only '+' and '/' may encode 62 and 63.
            if value >= 62, character != UInt8(ascii: "+"), character != UInt8(ascii: "/") { return nil }
            return value
        case .url:
            if value >= 62, character != UInt8(ascii: "-"), character != UInt8(ascii: "_") { return nil }
            return value
        }
    }
}
