import Synchronization

/// One open WebSocket connection, handed to a ``WebSocketHandler``.
///
/// Thread-safe: ``send(text:)`` and ``close(code:reason:)`` may be called from
/// any thread or task at any time; they never block on the network. Frames
/// are queued and written, in call order, by the server's WebSocket I/O
/// thread. After the socket closed, both are no-ops.
///
/// Sockets are equal when they are the same connection (same ``id``).
package final class WebSocket: Sendable, Hashable, CustomStringConvertible {
    /// Unique within the process, increasing.
    package let id: UInt64
    /// The upgrade request (method, path, query, headers, remote address, request id).
    package let request: HTTPRequest
    /// The subprotocol the handler chose, as sent in `Sec-WebSocket-Protocol`.
    package let subprotocol: String?
    /// The route pattern, for logs.
    let route: String
    let mailbox: WebSocketMailbox
    private let loop: WebSocketLoop
    /// Cleared when the connection closes, so late calls cost nothing.
    private let open = Atomic<Bool>(true)

    init(id: UInt64, request: HTTPRequest, subprotocol: String?, route: String, handler: any WebSocketHandler, loop: WebSocketLoop) {
        self.id = id
        self.request = request
        self.subprotocol = subprotocol
        self.route = route
        self.loop = loop
        self.mailbox = WebSocketMailbox(handler: handler, onClosed: { [loop] in loop.socketFinished() })
    }

    /// Queues `text` as one text message (a single frame).
    ///
    /// If the client does not read and more than 1 MiB of frames wait to be
    /// written, the server gives up on the connection (``WebSocketHandler/didClose(_:code:)``
    /// with 1006).
    package func send(text: String) {
        guard open.load(ordering: .relaxed) else { return }
        loop.submit(.send(id: id, frame: WebSocketFrame.encode(.text, Array(text.utf8))))
    }

    /// Starts the closing handshake: sends a close frame with `code` and
    /// `reason` (cut to 123 bytes of UTF-8), stops delivering messages, and
    /// closes the TCP connection when the client answers, or after
    /// ``HTTPServer/Configuration/webSocketCloseTimeoutSeconds``. A code that
    /// may not be sent (see ``WebSocketCloseCode/isSendable(_:)``) is replaced
    /// by 1000. ``WebSocketHandler/didClose(_:code:)`` then reports `code`.
    package func close(code: UInt16 = WebSocketCloseCode.normalClosure, reason: String = "") {
        guard open.load(ordering: .relaxed) else { return }
        let code = WebSocketCloseCode.isSendable(code) ? code : WebSocketCloseCode.normalClosure
        loop.submit(.close(id: id, code: code, reason: reason))
    }

    /// Whether the connection is still open (not yet closing or closed).
    package var isOpen: Bool { open.load(ordering: .relaxed) }

    func markClosed() {
        open.store(false, ordering: .relaxed)
    }

    /// `WebSocket(id, route)`.
    package var description: String { "WebSocket(\(id), \(route))" }

    /// Same connection.
    package static func == (lhs: WebSocket, rhs: WebSocket) -> Bool { lhs.id == rhs.id }

    /// Hashes the ``id``.
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
