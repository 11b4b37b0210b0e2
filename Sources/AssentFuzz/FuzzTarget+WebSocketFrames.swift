import AssentHTTP

extension FuzzTarget {
    /// Client WebSocket frames as the connection feeds them: the bytes arrive in pieces (the first byte picks the
    /// piece size), the parser reads frames from what has arrived until it needs more or fails the connection.
    static let webSocketFrames = FuzzTarget(name: "websocket-frames") { bytes in
        guard let first = bytes.first else { return }
        let pieceSize = Int(first % 32) + 1
        let stream = Array(bytes.dropFirst())
        var parser = WebSocketFrameParser(maxMessageBytes: 1024)
        var received: [UInt8] = []
        var offset = 0
        while offset < stream.count {
            received.append(contentsOf: stream[offset..<min(offset + pieceSize, stream.count)])
            offset += pieceSize
            while true {
                let (consumed, event) = received.withUnsafeBytes { parser.parse($0) }
                precondition(consumed >= 0 && consumed <= received.count, "the parser used bytes it was not given")
                if case .failure = event { return }
                if consumed == 0 { break }
                received.removeFirst(consumed)
            }
        }
    }
}
