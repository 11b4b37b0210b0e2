/// The application side of a WebSocket route (see ``Router/addWebSocket(_:_:)``).
///
/// The server calls these methods in Swift tasks, never on its I/O threads,
/// so they may suspend. For one socket they are called one at a time and in
/// order: ``didOpen(_:)`` first, then ``didReceive(text:from:)`` for each text
/// message in the order it arrived, and ``didClose(_:code:)`` exactly once,
/// last, whichever side or failure ended the connection (including server
/// shutdown). A slow handler delays only its own socket's later callbacks;
/// if the client sends faster than they are handled, so that more than four
/// times ``HTTPServer/Configuration/webSocketMaxMessageBytes`` wait
/// undelivered (each message counted with 64 bytes more than its text), the
/// server closes the socket with 1008.
package protocol WebSocketHandler: Sendable {
    /// Decides on an upgrade request whose handshake is valid: accept it with
    /// one of `offeredProtocols` (the client's `Sec-WebSocket-Protocol` list,
    /// in order; empty when it sent none) or with `nil` to answer without a
    /// subprotocol; or reject it with an HTTP response (usually
    /// `HTTPResponse.error(401, ...)`), which is sent instead of `101`.
    ///
    /// `request` has the method, path, query, headers and remote address of
    /// the upgrade request. Check `Origin` here if the route must only serve
    /// your own pages: browsers send it, and the WebSocket handshake is not
    /// protected by CORS.
    func accept(_ request: HTTPRequest, offeredProtocols: [String]) async -> WebSocketAcceptance

    /// The connection is open; `socket` may be kept and used from anywhere.
    func didOpen(_ socket: WebSocket) async

    /// A complete text message (reassembled from fragments, valid UTF-8).
    func didReceive(text: String, from socket: WebSocket) async

    /// The connection is closed; `code` is the close code that ended it:
    /// the client's (1005 when its close frame had none), the server's
    /// (``WebSocket/close(code:reason:)``, a protocol error, 1001 at shutdown),
    /// or 1006 when the TCP connection ended without a close handshake (the
    /// client vanished, stayed silent past the keep-alive, or stopped reading).
    func didClose(_ socket: WebSocket, code: UInt16) async
}

extension WebSocketHandler {
    /// Does nothing.
    package func didOpen(_ socket: WebSocket) async {}
    /// Does nothing.
    package func didClose(_ socket: WebSocket, code: UInt16) async {}
}
