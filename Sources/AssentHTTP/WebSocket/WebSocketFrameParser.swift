/// Reads client frames (RFC 6455 §5) and reassembles text messages.
///
/// Pure and incremental: feed it the bytes received so far with
/// ``parse(_:)``, which reads at most one frame and says how many bytes it
/// used. It enforces what this server requires of a client:
/// - every frame masked; reserved bits clear; a known opcode; lengths in their
///   shortest form and below 2^63 (else 1002);
/// - control frames final and at most 125 bytes (else 1002);
/// - continuation frames only inside a message, no new message before the
///   last one ended (else 1002);
/// - no binary messages (1003); text that is valid UTF-8 (1007); a
///   message, summed over its fragments, of at most `maxMessageBytes` (1009,
///   decided from the frame header, before the payload is read);
/// - close frames with no payload or a sendable code (1002) and a UTF-8 reason (1007).
package struct WebSocketFrameParser {
    package enum Event: Equatable {
        /// A complete text message.
        case text(String)
        /// A ping with its application data, to be echoed in a pong.
        case ping([UInt8])
        /// A pong (nothing to do but note that the client is alive).
        case pong
        /// The client starts (or answers) the closing handshake; `code` is nil when the frame had no payload.
        case close(code: UInt16?, reason: String)
        /// The client broke the protocol: fail the connection with `code`.
        case failure(code: UInt16, reason: String)
    }

    package let maxMessageBytes: Int
    /// Payload of the fragments of the text message being reassembled.
    private var fragments: [UInt8] = []
    private var inMessage = false

    package init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Whether a fragmented message is partly received.
    package var isInsideMessage: Bool { inMessage }

    /// Reads at most one frame from the start of `bytes`. Returns how many bytes
    /// it used (0: the frame is not complete yet; feed it again with more) and
    /// the event the frame produced, if any (a non-final fragment produces none).
    /// After a `.failure` the parser must not be used again.
    package mutating func parse(_ bytes: UnsafeRawBufferPointer) -> (consumed: Int, event: Event?) {
        guard bytes.count >= 2 else { return (0, nil) }
        let first = bytes[0], second = bytes[1]
        let fin = first & 0x80 != 0
        if first & 0x70 != 0 { return fail(1002, "reserved bits set without a negotiated extension") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            return fail(1002, "unknown opcode \(first & 0x0F)")
        }
        guard second & 0x80 != 0 else { return fail(1002, "client frames must be masked") }
        if opcode.isControl {
            guard fin else { return fail(1002, "fragmented control frame") }
            guard second & 0x7F <= 125 else { return fail(1002, "control frame longer than 125 bytes") }
        }

        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard bytes.count >= 4 else { return (0, nil) }
            length = UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            guard length >= 126 else { return fail(1002, "payload length not in its shortest form") }
            headerLength = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return (0, nil) }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes[index]) }
            guard length >> 63 == 0 else { return fail(1002, "payload length with the most significant bit set") }
            guard length > 0xFFFF else { return fail(1002, "payload length not in its shortest form") }
            headerLength = 10
        }

        switch opcode {
        case .text, .binary:
            if inMessage { return fail(1002, "a new message started before the previous one ended") }
            if opcode == .binary { return fail(1003, "binary messages are not supported") }
        case .continuation:
            if !inMessage { return fail(1002, "continuation frame without a message to continue") }
        case .close, .ping, .pong:
            break
        }
        if !opcode.isControl, UInt64(fragments.count) + length > UInt64(maxMessageBytes) {
            return fail(1009, "message larger than \(maxMessageBytes) bytes")
        }

        let payloadStart = headerLength + 4
        let total = payloadStart + Int(length)
        guard bytes.count >= total else { return (0, nil) }
        let mask = (bytes[headerLength], bytes[headerLength + 1], bytes[headerLength + 2], bytes[headerLength + 3])
        let payload = Self.unmask(UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<total]), mask)

        switch opcode {
        case .text:
            if fin { return (total, Self.text(payload)) }
            fragments = payload
            inMessage = true
            return (total, nil)
        case .continuation:
            fragments.append(contentsOf: payload)
            guard fin else { return (total, nil) }
            let message = fragments
            fragments = []
            inMessage = false
            return (total, Self.text(message))
        case .ping:
            return (total, .ping(payload))
        case .pong:
            return (total, .pong)
        case .close:
            return (total, Self.close(payload))
        case .binary:
            preconditionFailure("binary frames fail above")
        }
    }

    private func fail(_ code: UInt16, _ reason: String) -> (consumed: Int, event: Event?) {
        (0, .failure(code: code, reason: reason))
    }

    private static func text(_ payload: [UInt8]) -> Event {
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .failure(code: 1007, reason: "text message is not valid UTF-8")
        }
        return .text(text)
    }

    private static func close(_ payload: [UInt8]) -> Event {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { return .failure(code: 1002, reason: "close frame with a one-byte payload") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode.isSendable(code) else { return .failure(code: 1002, reason: "invalid close code \(code)") }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            return .failure(code: 1007, reason: "close reason is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }

    private static func unmask(_ bytes: UnsafeRawBufferPointer, _ mask: (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        let key = [mask.0, mask.1, mask.2, mask.3]
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            for index in 0..<bytes.count {
                buffer[index] = bytes[index] ^ key[index & 3]
            }
            initialized = bytes.count
        }
    }
}
