/// Conversions between the two encodings of a P-256 ECDSA signature: DER
/// (`SEQUENCE { INTEGER r, INTEGER s }`, as X.509 and OpenSSL use) and raw `r || s`
/// (two 32-byte big-endian integers, as JOSE/JWS ES256 uses, RFC 7518 §3.4).
package enum ECDSASignature {
    /// Bytes in a raw `r || s` signature.
    package static let rawByteCount = 2 * P256.coordinateByteCount

    /// Encodes a 64-byte raw `r || s` signature as DER. Returns nil unless `raw` is 64 bytes.
    package static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawByteCount else { return nil }
        let r = derInteger(raw[0..<32])
        let s = derInteger(raw[32..<64])
        // At most 2 * (2 + 33) = 70 content bytes, so the short length form always applies.
        return [0x30, UInt8(r.count + s.count)] + r + s
    }

    /// Decodes a strict-DER ECDSA signature into 64-byte raw `r || s`.
    ///
    /// Returns nil for anything but the unique DER encoding of two non-negative integers below 2^256
    /// (long-form lengths, non-minimal or negative integers, trailing bytes, other tags).
    package static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, der[1] < 0x80, Int(der[1]) == der.count - 2 else { return nil }
        var offset = 2
        guard let r = parseInteger(der, at: &offset), let s = parseInteger(der, at: &offset), offset == der.count else {
            return nil
        }
        return r + s
    }

    /// The DER INTEGER (tag, length, minimal two's-complement content) for a 32-byte unsigned value.
    private static func derInteger(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var content = Array(value.drop { $0 == 0 })
        if content.isEmpty {
            content = [0]
        } else if content[0] & 0x80 != 0 {
            content.insert(0, at: 0)
        }
        return [0x02, UInt8(content.count)] + content
    }

    /// Parses one strict-DER non-negative INTEGER below 2^256 at `offset`, returning it left-padded to 32 bytes.
    private static func parseInteger(_ der: [UInt8], at offset: inout Int) -> [UInt8]? {
        guard offset + 2 <= der.count, der[offset] == 0x02 else { return nil }
        let length = Int(der[offset + 1])
        let start = offset + 2
        guard length >= 1, length <= P256.coordinateByteCount + 1, start + length <= der.count else { return nil }
        let content = der[start..<(start + length)]
        let first = content[content.startIndex]
        guard first & 0x80 == 0 else { return nil }  // negative
        if length > 1, first == 0, content[content.startIndex + 1] & 0x80 == 0 { return nil }  // non-minimal
        if length == P256.coordinateByteCount + 1, first != 0 { return nil }  // 2^256 or more
        let magnitude = length == P256.coordinateByteCount + 1 ? content.dropFirst() : content
        offset = start + length
        return [UInt8](repeating: 0, count: P256.coordinateByteCount - magnitude.count) + magnitude
    }
}
