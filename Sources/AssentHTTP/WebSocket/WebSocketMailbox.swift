import AssentSync

/// Delivers one socket's events to its handler in order, one at a time.
///
/// The I/O thread posts events; the first post into an idle mailbox starts a
/// task that drains it and ends when it is empty, so an idle socket holds no
/// task at all (which is what keeps 10,000 idle sockets cheap).
final class WebSocketMailbox: Sendable {
    enum Event: Sendable {
        case open
        case text(String)
        case close(UInt16)
    }

    private struct State {
        var queue: [Event] = []
        var draining = false
        /// Cost (``cost(of:)``) of the text messages posted but not yet handled.
        var pendingBytes = 0
    }

    let handler: any WebSocketHandler
    /// Runs once `didClose` has returned.
    private let onClosed: @Sendable () -> Void
    private let state = AssentLock(State())

    init(handler: any WebSocketHandler, onClosed: @escaping @Sendable () -> Void) {
        self.handler = handler
        self.onClosed = onClosed
    }

    /// Cost of the text messages not yet handled.
    var pendingBytes: Int { state.withLock { $0.pendingBytes } }

    /// What a waiting message counts against the backlog cap: its UTF-8 bytes
    /// plus 64 for the queue entry, so a flood of empty messages counts too.
    static func cost(of text: String) -> Int { text.utf8.count + 64 }

    /// Queues `event` for `socket`.
    func post(_ event: Event, socket: WebSocket) {
        let start = state.withLock { state -> Bool in
            state.queue.append(event)
            if case .text(let text) = event { state.pendingBytes += Self.cost(of: text) }
            if state.draining { return false }
            state.draining = true
            return true
        }
        guard start else { return }
        Task { await self.drain(socket) }
    }

    private func drain(_ socket: WebSocket) async {
        while true {
            let batch = state.withLock { state -> [Event] in
                if state.queue.isEmpty {
                    state.draining = false
                    return []
                }
                defer { state.queue = [] }
                return state.queue
            }
            if batch.isEmpty { return }
            for event in batch {
                switch event {
                case .open:
                    await handler.didOpen(socket)
                case .text(let text):
                    await handler.didReceive(text: text, from: socket)
                    state.withLock { $0.pendingBytes -= Self.cost(of: text) }
                case .close(let code):
                    await handler.didClose(socket, code: code)
                    onClosed()
                }
            }
        }
    }
}
