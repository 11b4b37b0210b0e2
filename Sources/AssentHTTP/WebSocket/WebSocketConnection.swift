/// One upgraded socket as the I/O thread sees it. Touched only on that thread.
final class WebSocketConnection {
    /// Where the connection is in its closing, if anywhere.
    enum Phase {
        /// Messages flow both ways.
        case open
        /// The server sent a close frame and waits for the client's until `deadline`.
        case closeSent(deadline: ContinuousClock.Instant)
        /// The last frame is queued; once written, the write side is shut down.
        case finishing(deadline: ContinuousClock.Instant)
        /// The write side is shut down; input is read and dropped until the
        /// client closes too, or `deadline`.
        case lingering(deadline: ContinuousClock.Instant)

        var deadline: ContinuousClock.Instant? {
            switch self {
            case .open: nil
            case .closeSent(let deadline), .finishing(let deadline), .lingering(let deadline): deadline
            }
        }
    }

    /// The descriptor, and what else closing it must release.
    let upgraded: UpgradedSocket
    var fd: Int32 { upgraded.fd }
    let socket: WebSocket
    let openedAt: ContinuousClock.Instant
    var parser: WebSocketFrameParser
    var phase = Phase.open
    /// Bytes of a frame not complete yet (empty, and without storage, between frames).
    var inbound: [UInt8] = []
    /// Frames waiting to be written, from `outboundOffset` on.
    var outbound: [UInt8] = []
    var outboundOffset = 0
    /// Whether EPOLLOUT is being watched.
    var watchingWrites = false
    /// Whether frames were queued since the last flush.
    var dirty = false
    var lastHeard: ContinuousClock.Instant
    var lastPing: ContinuousClock.Instant
    /// The close code reported to the handler; set once.
    var reportedCode: UInt16?
    /// Set when the descriptor is closed; nothing is done with the connection after that.
    var destroyed = false

    init(_ upgraded: UpgradedSocket, socket: WebSocket, maxMessageBytes: Int, now: ContinuousClock.Instant) {
        self.upgraded = upgraded
        self.socket = socket
        self.parser = WebSocketFrameParser(maxMessageBytes: maxMessageBytes)
        self.openedAt = now
        self.lastHeard = now
        self.lastPing = now
    }

    /// Whether incoming frames are still read (open, or waiting for the client's close).
    var isParsing: Bool {
        if destroyed { return false }
        switch phase {
        case .open, .closeSent: return true
        case .finishing, .lingering: return false
        }
    }

    var isOpen: Bool {
        if case .open = phase { return !destroyed }
        return false
    }

    var queuedBytes: Int { outbound.count - outboundOffset }
}
