internal import CHTTPShims
#if canImport(Glibc)
import Glibc
import AssentLog
import Synchronization
#endif

/// The WebSocket handshake on top of the request path: validation, the
/// handler's decision (in a task, like any handler), the `101`, and taking the
/// socket over from libmicrohttpd.
extension ServerCore {
    /// A request on a WebSocket route: answers a bad handshake at once, else
    /// asks the handler in a task and queues its answer.
    func dispatchWebSocket(
        _ handler: any WebSocketHandler,
        _ request: HTTPRequest,
        _ state: RequestState,
        _ connection: OpaquePointer
    ) -> Bool {
        let handshake: WebSocketHandshake
        switch WebSocketHandshake.validate(method: request.method, headers: request.headers) {
        case .invalid(let response):
            return respond(state, connection, response)
        case .valid(let valid):
            handshake = valid
        }
        guard let webSockets, !draining.load(ordering: .relaxed) else {
            return respond(state, connection, Self.shuttingDown())
        }
        guard webSockets.openCount < configuration.maxWebSockets else {
            logger.repeatedWarning("websocket refused: at the limit", ["limit": .int(configuration.maxWebSockets), "route": .string(state.route)])
            return respond(state, connection, .error(
                503, code: "too_many_websockets", description: "The server holds as many WebSockets as it may; retry later."
            ))
        }
        let route = state.route
        let logger = logger
        return run(state, connection) {
            switch await handler.accept(request, offeredProtocols: handshake.offeredProtocols) {
            case .reject(let response):
                return (response, nil)
            case .accept(let subprotocol):
                if let subprotocol, !handshake.offeredProtocols.contains(subprotocol) {
                    logger.error("websocket handler chose a subprotocol the client did not offer", [
                        "requestId": .string(request.requestID), "route": .string(route),
                    ])
                    return (Self.internalError(), nil)
                }
                let upgrade = PendingUpgrade(handler: handler, request: request, subprotocol: subprotocol, route: route)
                return (handshake.switchingProtocols(subprotocol: subprotocol), upgrade)
            }
        }
    }

    /// Queues the `101` of an accepted handshake (or `503` once shutdown has begun).
    func respondUpgrade(_ state: RequestState, _ connection: OpaquePointer, _ response: HTTPResponse, _ upgrade: PendingUpgrade) -> Bool {
        if draining.load(ordering: .relaxed) {
            return respond(state, connection, Self.shuttingDown())
        }
        let block = headerBlock(response, state, connectionClose: false)
        state.upgrade = upgrade  // before queuing: the hand-over reads it
        let result = block.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                assent_http_respond_upgrade(connection, chars.baseAddress, chars.count, upgradeTarget.pointer)
            }
        }
        guard result == ASSENT_HTTP_RESPOND_OK else {
            state.upgrade = nil
            logger.error("could not queue a websocket upgrade", [
                "requestId": .string(state.requestID), "route": .string(state.route), "result": .int(Int(result)),
            ])
            return respond(state, connection, Self.internalError())
        }
        state.stage = .responded
        state.status = 101
        return true
    }

    /// libmicrohttpd sent the `101` and handed over a duplicate of the socket
    /// (on the connection's worker thread, before the request completes).
    func upgraded(requestContext: UnsafeMutableRawPointer?, extra: UnsafePointer<CChar>?, extraLength: Int, socket: UpgradedSocket, error: Int32) {
        let state = requestContext.map { Unmanaged<RequestState>.fromOpaque($0).takeUnretainedValue() }
        let upgrade = state?.upgrade
        state?.upgrade = nil
        guard let upgrade, let webSockets else {
            socket.close()
            logger.error("websocket upgrade without a pending handshake", [:])
            return
        }
        guard socket.fd >= 0 else {
            socket.close()
            logger.error("websocket upgrade failed: cannot take the socket over", [
                "requestId": .string(upgrade.request.requestID), "errno": .int(Int(error)),
            ])
            return
        }
        var bytes: [UInt8] = []
        if let extra, extraLength > 0 {
            bytes = Array(UnsafeRawBufferPointer(start: extra, count: extraLength))
        }
        webSockets.open(socket, upgrade: upgrade, extra: bytes)
    }
}

/// The C struct libmicrohttpd's upgrade callback finds the server through,
/// at a fixed address for the life of the ``ServerCore``.
struct UpgradeTarget: @unchecked Sendable {
    let pointer = UnsafeMutablePointer<assent_http_upgrade_target>.allocate(capacity: 1)
}
