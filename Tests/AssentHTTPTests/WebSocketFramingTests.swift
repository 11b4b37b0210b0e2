import AssentCrypto
import Testing
@testable import AssentHTTP

/// RFC 6455 framing, handshake and keep-alive rules, in process.
@Suite struct WebSocketFramingTests {
    private func parseAll(_ bytes: [UInt8], maxMessageBytes: Int = 64 << 10) -> [WebSocketFrameParser.Event] {
        var parser = WebSocketFrameParser(maxMessageBytes: maxMessageBytes)
        var events: [WebSocketFrameParser.Event] = []
        var offset = 0
        while offset < bytes.count {
            let (consumed, event) = bytes[offset...].withUnsafeBytes { parser.parse($0) }
            if let event { events.append(event) }
            if case .failure = event { break }
            if consumed == 0 { break }
            offset += consumed
        }
        return events
    }

    @Test func theRFCSampleKeyGivesTheRFCAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// The handshake decodes `Sec-WebSocket-Key` with AssentCrypto's strict decoder: padded, canonical, nothing else.
    @Test func handshakeBase64RoundTripsAndRejectsMalformedInput() {
        for count in 0..<20 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64.decodeStrict(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.decodeStrict("Zm9vYg==") == Array("foob".utf8))
        #expect(Base64.decodeStrict("Zm9vYg=") == nil)
        #expect(Base64.decodeStrict("Zm9v=mFy") == nil)
        #expect(Base64.decodeStrict("Zm9vYh==") == nil)  // non-zero pad bits
        #expect(Base64.decodeStrict("Zm9v YmFy") == nil)
    }

    @Test func handshakeValidationParsesOfferedProtocolsAcrossLines() {
        let headers = HTTPHeaders([
            ("Upgrade", "WebSocket"), ("Connection", "keep-alive, Upgrade"), ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ("Sec-WebSocket-Protocol", "authsignal-ws, x.authsignal.tenant.t-1"), ("Sec-WebSocket-Protocol", "extra"),
        ])
        guard case .valid(let handshake) = WebSocketHandshake.validate(method: "GET", headers: headers) else {
            Issue.record("valid handshake refused")
            return
        }
        #expect(handshake.offeredProtocols == ["authsignal-ws", "x.authsignal.tenant.t-1", "extra"])
        let answer = handshake.switchingProtocols(subprotocol: "authsignal-ws")
        #expect(answer.status == 101)
        #expect(answer.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(answer.headers["Sec-WebSocket-Protocol"] == "authsignal-ws")
        if case .invalid(let response) = WebSocketHandshake.validate(method: "HEAD", headers: headers) {
            #expect(response.status == 426)
        } else {
            Issue.record("HEAD upgraded")
        }
    }

    @Test func serverFramesUseTheShortestLengthAndNoMask() {
        #expect(WebSocketFrame.encode(.text, Array("hi".utf8)) == [0x81, 0x02, 0x68, 0x69])
        #expect(Array(WebSocketFrame.encode(.text, [UInt8](repeating: 0, count: 126)).prefix(4)) == [0x81, 126, 0, 126])
        #expect(Array(WebSocketFrame.encode(.text, [UInt8](repeating: 0, count: 65_536)).prefix(10)) == [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(WebSocketFrame.encode(.pong, []) == [0x8A, 0x00])
        #expect(WebSocketFrame.close(code: 1001, reason: "bye") == [0x88, 0x05, 0x03, 0xE9, 0x62, 0x79, 0x65])
    }

    @Test func closeReasonsAreCutAtACharacterBoundary() {
        let frame = WebSocketFrame.close(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(frame[1] == 2 + 122)  // 61 two-byte characters fit in 123 bytes
        #expect(String(validating: frame[4...], as: UTF8.self) != nil)
    }

    @Test func theParserWaitsForWholeFramesAndReassemblesFragments() {
        let whole = WebSocketClient.frame(opcode: 0x1, Array("hello".utf8))
        var parser = WebSocketFrameParser(maxMessageBytes: 100)
        for cut in 0..<whole.count {
            let (consumed, event) = whole[..<cut].withUnsafeBytes { parser.parse($0) }
            #expect(consumed == 0 && event == nil)
        }
        let (consumed, event) = whole.withUnsafeBytes { parser.parse($0) }
        #expect(consumed == whole.count)
        #expect(event == .text("hello"))

        let fragmented = WebSocketClient.frame(opcode: 0x1, Array("he".utf8), fin: false)
            + WebSocketClient.frame(opcode: 0xA, [])
            + WebSocketClient.frame(opcode: 0x0, Array("ll".utf8), fin: false)
            + WebSocketClient.frame(opcode: 0x0, Array("o".utf8))
        #expect(parseAll(fragmented) == [.pong, .text("hello")])
    }

    @Test func closeFramesCarryTheirCodeAndReason() {
        #expect(parseAll(WebSocketClient.frame(opcode: 0x8, [0x03, 0xE8] + Array("bye".utf8))) == [.close(code: 1000, reason: "bye")])
        #expect(parseAll(WebSocketClient.frame(opcode: 0x8, [])) == [.close(code: nil, reason: "")])
        #expect(parseAll(WebSocketClient.frame(opcode: 0x8, [0x0F, 0xA0])) == [.close(code: 4000, reason: "")])
        for invalid: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            #expect(parseAll(WebSocketClient.frame(opcode: 0x8, [UInt8(invalid >> 8), UInt8(invalid & 0xFF)])).first.map(code) == 1002)
        }
    }

    @Test func oversizedMessagesFailFromTheHeaderAlone() {
        // Only the header of a 1 GiB frame: the parser must not wait for the payload.
        let header: [UInt8] = [0x81, 0xFF, 0, 0, 0, 0, 0x40, 0, 0, 0, 1, 2, 3, 4]
        #expect(parseAll(header).first.map(code) == 1009)
        #expect(parseAll(WebSocketClient.frame(opcode: 0x1, [UInt8](repeating: 0x61, count: 101)), maxMessageBytes: 100).first.map(code) == 1009)
        #expect(parseAll(WebSocketClient.frame(opcode: 0x1, [UInt8](repeating: 0x61, count: 100)), maxMessageBytes: 100) == [.text(String(repeating: "a", count: 100))])
    }

    private func code(_ event: WebSocketFrameParser.Event) -> UInt16? {
        if case .failure(let code, _) = event { return code }
        return nil
    }

    @Test func keepalivePingsEveryIntervalAndDropsAfterTwoSilentIntervals() {
        let start = ContinuousClock.now
        let interval = Duration.seconds(30)
        func action(heard: Int, pinged: Int, now: Int) -> WebSocketKeepalive.Action {
            WebSocketKeepalive.action(now: start + .seconds(now), lastHeard: start + .seconds(heard), lastPing: start + .seconds(pinged), interval: interval)
        }
        #expect(action(heard: 0, pinged: 0, now: 29) == .none)
        #expect(action(heard: 0, pinged: 0, now: 30) == .ping)
        #expect(action(heard: 0, pinged: 30, now: 45) == .none)
        #expect(action(heard: 0, pinged: 30, now: 59) == .none)
        #expect(action(heard: 0, pinged: 30, now: 60) == .drop)
        #expect(action(heard: 31, pinged: 30, now: 60) == .ping)
        #expect(action(heard: 31, pinged: 60, now: 80) == .none)
    }

    @Test func closeCodesThatMayBeSent() {
        #expect(WebSocketCloseCode.isSendable(1000))
        #expect(WebSocketCloseCode.isSendable(1011))
        #expect(WebSocketCloseCode.isSendable(4999))
        #expect(!WebSocketCloseCode.isSendable(1005))
        #expect(!WebSocketCloseCode.isSendable(1006))
        #expect(!WebSocketCloseCode.isSendable(2000))
    }

    @Test func webSocketRoutesLookLike426GetRoutesToMatch() async {
        var router = Router()
        router.addWebSocket("/v1/ws-v1-challenge", RecordingHandler())
        #expect(router.hasWebSocketRoutes)
        guard case .found(let handler, _, let pattern) = router.match(method: "GET", path: "/v1/ws-v1-challenge") else {
            Issue.record("not found")
            return
        }
        #expect(pattern == "/v1/ws-v1-challenge")
        #expect(await handler(HTTPRequest(method: "GET", path: "/v1/ws-v1-challenge"), RouteParameters()).status == 426)
        guard case .webSocket = router.resolve(method: "GET", path: "/v1/ws-v1-challenge") else {
            Issue.record("not resolved as a WebSocket route")
            return
        }
    }
}
