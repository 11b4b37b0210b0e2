/// Server-to-client frames of RFC 6455 §5.2: unmasked, never fragmented.
enum WebSocketFrame {
    enum Opcode: UInt8 {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// One final frame: `FIN` + opcode, the payload length in the shortest
    /// form (7 bits, 16 bits after 126, or 64 bits after 127), no mask, payload.
    static func encode(_ opcode: Opcode, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(payload.count + 10)
        frame.append(0x80 | opcode.rawValue)
        let count = payload.count
        if count < 126 {
            frame.append(UInt8(count))
        } else if count <= 0xFFFF {
            frame.append(126)
            frame.append(UInt8(count >> 8))
            frame.append(UInt8(count & 0xFF))
        } else {
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
            }
        }
        frame.append(contentsOf: payload)
        return frame
    }

    /// A close frame: the code (big-endian) and the reason cut to at most
    /// 123 bytes at a UTF-8 character boundary, so the payload stays within
    /// the 125 bytes allowed for control frames.
    static func close(code: UInt16, reason: String) -> [UInt8] {
        var payload: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]
        payload.append(contentsOf: truncatedUTF8(reason, maxBytes: 123))
        return encode(.close, payload)
    }

    /// The UTF-8 of `text`, cut to at most `maxBytes` without splitting a character.
    static func truncatedUTF8(_ text: String, maxBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let utf8 = Array(String(scalar).utf8)
            if bytes.count + utf8.count > maxBytes { break }
            bytes.append(contentsOf: utf8)
        }
        return bytes
    }
}
