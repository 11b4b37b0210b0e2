/// Standard base64 (RFC 4648 §4) with padding, for the handshake's key and accept values.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(triple >> 18 & 0x3F)])
            output.append(alphabet[Int(triple >> 12 & 0x3F)])
            output.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(triple & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes padded base64; nil for a length that is not a multiple of 4,
    /// a character outside the alphabet, misplaced padding, or non-zero pad bits.
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var values: [UInt32] = []
            var padding = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                if byte == UInt8(ascii: "=") {
                    guard isLast, offset >= 2 else { return nil }
                    padding += 1
                    values.append(0)
                } else {
                    guard padding == 0, let value = alphabet.firstIndex(of: byte) else { return nil }
                    values.append(UInt32(value))
                }
            }
            let triple = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
            output.append(UInt8(triple >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(triple >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(triple & 0xFF)) }
            if padding == 2, triple & 0xFFFF != 0 { return nil }
            if padding == 1, triple & 0xFF != 0 { return nil }
            index += 4
        }
        return output
    }
}
