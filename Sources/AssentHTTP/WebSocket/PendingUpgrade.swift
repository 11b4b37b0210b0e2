/// What the server needs to open a WebSocket once libmicrohttpd hands the socket over.
struct PendingUpgrade: Sendable {
    let handler: any WebSocketHandler
    let request: HTTPRequest
    let subprotocol: String?
    let route: String
}
