/// The answer of ``WebSocketHandler/accept(_:offeredProtocols:)``.
package enum WebSocketAcceptance: Sendable {
    /// Upgrade, answering `Sec-WebSocket-Protocol: subprotocol` (which must be
    /// one of the offered ones; anything else is answered `500
    /// internal_error`), or without that header when `nil`.
    case accept(subprotocol: String?)
    /// Do not upgrade; send this response (it should be a 4xx or 5xx) instead.
    case reject(HTTPResponse)
}
