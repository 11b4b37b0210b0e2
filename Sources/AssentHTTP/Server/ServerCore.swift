import AssentLog
internal import CHTTPShims
import AssentSync
import Synchronization

/// The part of ``HTTPServer`` that libmicrohttpd calls into.
///
/// Its methods run on libmicrohttpd's worker threads (one at a time per
/// connection), except ``finish(_:response:connection:)``, which runs in the
/// handler's task, and ``forceFinishRunning()``, which runs in `shutdown()`.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let router: Router
    let logger: Logger
    let metrics: HTTPMetrics

    /// Set when shutdown begins: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// Request boxes alive (created, not yet released by the completed callback).
    let liveRequests = Atomic<Int>(0)

    private struct Registry {
        /// Once set, no handler starts any more; new requests get `503`.
        var forcing = false
        /// Requests whose handler is running, so shutdown can answer them.
        var running: [ObjectIdentifier: (RequestState, ConnectionHandle)] = [:]
    }

    private let registry = AssentLock(Registry())

    /// The WebSocket I/O thread; only when the router has WebSocket routes.
    let webSockets: WebSocketLoop?
    /// Where libmicrohttpd reports upgraded sockets: this core, unretained
    /// (the server keeps the core alive until the daemon has stopped).
    let upgradeTarget: UpgradeTarget

    init(configuration: HTTPServer.Configuration, router: Router, logger: Logger, metrics: HTTPMetrics) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.metrics = metrics
        self.webSockets = router.hasWebSocketRoutes
            ? WebSocketLoop(settings: configuration.webSocketSettings, logger: logger, metrics: metrics)
            : nil
        self.upgradeTarget = UpgradeTarget()
        upgradeTarget.pointer.initialize(to: assent_http_upgrade_target(
            context: Unmanaged.passUnretained(self).toOpaque(),
            upgraded: { context, requestContext, extra, extraLength, fd, error, handle in
                Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue().upgraded(
                    requestContext: requestContext, extra: extra, extraLength: extraLength,
                    socket: UpgradedSocket(fd: fd, handle: handle), error: error)
            }
        ))
    }

    deinit {
        upgradeTarget.pointer.deinitialize(count: 1)
        upgradeTarget.pointer.deallocate()
    }

    // MARK: - Callbacks

    /// The request line has arrived: creates the request's box.
    func requestStarted(target: UnsafePointer<CChar>) -> UnsafeMutableRawPointer {
        let state = RequestState(target: String(cString: target), startedAt: .now)
        liveRequests.add(1, ordering: .relaxed)
        metrics.requestsInFlightChanged(by: 1)
        return Unmanaged.passRetained(state).toOpaque()
    }

    /// libmicrohttpd's access handler; returns `false` to close the connection.
    func access(
        connection: OpaquePointer,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        method: UnsafePointer<CChar>
    ) -> Bool {
        guard let raw = context.pointee else { return false }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()

        switch state.stage {
        case .awaitingFirstCall:
            state.method = String(cString: method)
            state.requestID = RequestID.resolve(incoming: header(connection, "X-Request-Id"))
            state.remoteAddress = clientAddress(connection)
            if configuration.trustedProxies.isTrusted(state.remoteAddress) {
                state.remoteAddress = configuration.trustedProxies.clientAddress(
                    peer: state.remoteAddress, forwardedFor: headers(connection).values(for: "X-Forwarded-For"))
            }
            let head = assent_http_head_summary(connection)
            let headBytes = state.method.utf8.count + state.target.utf8.count + 11 + head.bytes
            if headBytes > configuration.maxHeaderBytes {
                state.route = routePattern(state)
                return respond(state, connection, .error(
                    431, code: "request_header_fields_too_large",
                    description: "The request line and headers are larger than \(configuration.maxHeaderBytes) bytes."
                ))
            }
            // RFC 9112 §5.1: whitespace between a header's name and its colon is a 400. libmicrohttpd 0.9.75 keeps
            // it in the name (so `Transfer-Encoding : chunked` frames nothing here, while a proxy in front may read
            // it as chunked) and refuses it itself only at MHD_OPTION_STRICT_FOR_CLIENT -1, its most lenient level
            // otherwise, with an HTML page. Refused here, with the envelope, and the connection closed, since where
            // this request ends is not known.
            if head.spaced_names > 0 {
                state.route = routePattern(state)
                state.closeAfterResponse = true
                return respond(state, connection, .error(
                    400, code: "invalid_request",
                    description: "A header field has whitespace in its name or before its colon (RFC 9112 section 5.1)."
                ))
            }
            // A body framed two ways (Content-Length and Transfer-Encoding, or two Content-Lengths) is read one way
            // here and perhaps another by a proxy in front: request smuggling. Refused before any body is read, and
            // the connection is closed, since where this request ends (and the next begins) is not known.
            if head.content_lengths > 1 || (head.content_lengths > 0 && head.transfer_encodings > 0) {
                state.route = routePattern(state)
                state.closeAfterResponse = true
                return respond(state, connection, .error(
                    400, code: "invalid_request",
                    description: "The request frames its body two ways (Content-Length with Transfer-Encoding, "
                        + "or two Content-Lengths)."
                ))
            }
            if let declared = header(connection, "Content-Length") {
                let length = UInt64(declared)
                if length.map({ $0 > UInt64(configuration.maxBodyBytes) }) ?? true {
                    state.stage = .bodyTooLarge
                    state.route = routePattern(state)
                    return respond(state, connection, payloadTooLarge())
                }
                // Reserve for small bodies only: a client may announce a size and send nothing.
                state.body.reserveCapacity(min(Int(length!), 64 << 10))
            }
            state.stage = .receivingBody
            if uploadSize.pointee == 0 { return true }
            return receive(state, connection, uploadData, uploadSize)

        case .receivingBody:
            if uploadSize.pointee > 0 { return receive(state, connection, uploadData, uploadSize) }
            return dispatch(state, connection)

        case .bodyTooLarge:
            if uploadSize.pointee > 0 { return discard(state, uploadSize) }
            state.route = routePattern(state)
            return respond(state, connection, payloadTooLarge())

        case .dispatched:
            // Resumed: the handler (or the shutdown sweep) left a response.
            // An accepted WebSocket handshake comes back here too, with its
            // pending upgrade: then the `101` is queued (ServerCore+WebSocket).
            guard let (response, upgrade) = state.takeResponse() else {
                logger.error("resumed without a response", ["requestId": .string(state.requestID)])
                return respond(state, connection, Self.internalError())
            }
            if let upgrade {
                return respondUpgrade(state, connection, response, upgrade)
            }
            return respond(state, connection, response)

        case .responded:
            // A response is queued; anything more the client sends is dropped.
            uploadSize.pointee = 0
            return true
        }
    }

    /// The request is over: logs it, counts it and releases its box.
    func requestCompleted(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, termination: Int32) {
        guard let context, let raw = context.pointee else { return }
        context.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        defer {
            metrics.requestsInFlightChanged(by: -1)
            liveRequests.add(-1, ordering: .relaxed)
        }
        if state.abandon() {
            // Only possible if the daemon stops while a handler runs, which
            // shutdown prevents; never let that handler resume a freed connection.
            _ = registry.withLock { $0.running.removeValue(forKey: ObjectIdentifier(state)) }
        }
        let elapsed = ContinuousClock.now - state.startedAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        guard state.stage != .awaitingFirstCall else {
            // libmicrohttpd ended the request before calling the application
            // (e.g. headers over the memory limit, a timeout, a closed socket).
            if logger.isEnabled(.debug) {
                logger.debug("request ended before reaching the application", [
                    "termination": .string(Self.terminationName(termination)),
                    "durationMs": .double(Self.milliseconds(seconds)),
                ])
            }
            return
        }

        let status = state.status ?? 499
        metrics.recordRequest(method: state.method, route: state.route, status: status, durationSeconds: seconds)
        guard logger.isEnabled(.info) else { return }
        var fields: [String: LogValue] = [
            "requestId": .string(state.requestID),
            "method": .string(state.method),
            "route": .string(state.route),
            "status": .int(status),
            "durationMs": .double(Self.milliseconds(seconds)),
            "bytesIn": .int(state.bytesIn),
            "bytesOut": .int(state.bytesOut),
            "remote": .string(state.remoteAddress),
        ]
        if termination != 0 { fields["terminated"] = .string(Self.terminationName(termination)) }
        logger.info("request", fields)
    }

    /// A TCP connection opened or closed.
    func connectionChanged(opened: Bool) {
        metrics.connectionsChanged(by: opened ? 1 : -1)
    }

    /// A message from libmicrohttpd's own error log.
    func libraryMessage(_ message: UnsafePointer<CChar>) {
        logger.repeatedWarning("libmicrohttpd", ["detail": .string(String(cString: message))])
    }

    // MARK: - Body

    private func receive(
        _ state: RequestState,
        _ connection: OpaquePointer,
        _ data: UnsafePointer<CChar>?,
        _ size: UnsafeMutablePointer<Int>
    ) -> Bool {
        let count = size.pointee
        if state.body.count + count > configuration.maxBodyBytes {
            state.stage = .bodyTooLarge
            state.body = []
            return discard(state, size)
        }
        if let data {
            data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            }
        }
        state.bytesIn += count
        size.pointee = 0
        return true
    }

    /// The pattern of the route that would handle this request, for logs and
    /// metrics of requests answered before dispatch; `unmatched` if none.
    private func routePattern(_ state: RequestState) -> String {
        switch router.resolve(method: state.method, path: state.path) {
        case .handler(_, _, let pattern), .webSocket(_, _, let pattern): return pattern
        case .methodNotAllowed, .notFound: return "unmatched"
        }
    }

    /// Reads and drops body bytes past the cap. libmicrohttpd 0.9.75 cannot
    /// queue a response while a body is still arriving, so the rest of the body
    /// is read (up to a bound; past it, the connection is closed without an
    /// answer) and `413` is sent once it has ended., up to a bound; past it, closes the connection.
    private func discard(_ state: RequestState, _ size: UnsafeMutablePointer<Int>) -> Bool {
        state.bytesIn += size.pointee
        size.pointee = 0
        return state.bytesIn <= configuration.maxBodyBytes + configuration.maxDiscardedBodyBytes
    }

    // MARK: - Dispatch

    private func dispatch(_ state: RequestState, _ connection: OpaquePointer) -> Bool {
        let path = state.path
        switch router.resolve(method: state.method, path: path) {
        case .notFound:
            return respond(state, connection, .notFound)
        case .methodNotAllowed(let allowed):
            var response = HTTPResponse.error(405, code: "method_not_allowed", description: "This path does not accept this method.")
            response.headers.add("Allow", allowed.joined(separator: ", "))
            return respond(state, connection, response)
        case .handler(let handler, let parameters, let pattern):
            state.route = pattern
            let request = makeRequest(state, connection)
            state.body = []
            return run(state, connection) { (await handler(request, parameters), nil) }
        case .webSocket(let handler, _, let pattern):
            state.route = pattern
            let request = makeRequest(state, connection)
            state.body = []
            return dispatchWebSocket(handler, request, state, connection)
        }
    }

    private func makeRequest(_ state: RequestState, _ connection: OpaquePointer) -> HTTPRequest {
        HTTPRequest(
            method: state.method,
            path: state.path,
            rawQuery: state.rawQuery,
            headers: headers(connection),
            body: state.body,
            remoteAddress: state.remoteAddress,
            requestID: state.requestID
        )
    }

    /// Suspends the connection and runs `body` (a handler) in a task; the task
    /// resumes the connection when the response is ready and the next access
    /// call queues it.
    ///
    /// Order matters: the connection is suspended and the state marked
    /// `running` before the task exists, so a handler that returns at once
    /// cannot resume a connection that is not yet suspended.
    func run(
        _ state: RequestState,
        _ connection: OpaquePointer,
        _ body: @escaping @Sendable () async -> (HTTPResponse, PendingUpgrade?)
    ) -> Bool {
        if registry.withLock({ $0.forcing }) {
            // Shutdown is stopping the daemon: answer without suspending the connection.
            return respond(state, connection, Self.shuttingDown())
        }
        let handle = ConnectionHandle(pointer: connection)
        state.stage = .dispatched
        assent_http_suspend(connection)
        state.outcome.withLock { $0 = .running }
        let accepted = registry.withLock { registry in
            guard !registry.forcing else { return false }
            registry.running[ObjectIdentifier(state)] = (state, handle)
            return true
        }
        guard accepted else {
            // Shutdown is past its grace period: answer without running the handler.
            if state.complete(with: Self.shuttingDown()) { assent_http_resume(connection) }
            return true
        }
        Task {
            let (response, upgrade) = await body()
            self.finish(state, response: response, upgrade: upgrade, connection: handle)
        }
        return true
    }

    /// Hands the handler's response over and resumes the connection, unless
    /// shutdown already answered the request.
    func finish(_ state: RequestState, response: HTTPResponse, upgrade: PendingUpgrade? = nil, connection: ConnectionHandle) {
        guard state.complete(with: response, upgrade: upgrade) else { return }
        _ = registry.withLock { $0.running.removeValue(forKey: ObjectIdentifier(state)) }
        assent_http_resume(connection.pointer)
    }

    /// Answers every request whose handler still runs with `503 shutting_down`
    /// and stops new handlers from starting. Returns how many were answered.
    @discardableResult
    func forceFinishRunning() -> Int {
        let running = registry.withLock { registry in
            registry.forcing = true
            let running = Array(registry.running.values)
            registry.running = [:]
            return running
        }
        var answered = 0
        for (state, handle) in running where state.complete(with: Self.shuttingDown()) {
            assent_http_resume(handle.pointer)
            answered += 1
        }
        return answered
    }

    // MARK: - Responses

    /// Queues `response` (with `X-Request-Id`, and `Connection: close` while
    /// draining or when ``RequestState/closeAfterResponse`` is set). A
    /// response libmicrohttpd rejects (bad header) becomes `500 internal_error`.
    func respond(_ state: RequestState, _ connection: OpaquePointer, _ response: HTTPResponse) -> Bool {
        var response = response
        if !Self.isSendable(response) {
            logger.error("handler returned an invalid response", [
                "requestId": .string(state.requestID), "route": .string(state.route), "status": .int(response.status),
            ])
            response = Self.internalError()
        }
        let close = state.closeAfterResponse || draining.load(ordering: .relaxed)
        let block = headerBlock(response, state, connectionClose: close)
        let result = block.withUnsafeBufferPointer { headerBytes in
            response.body.withUnsafeBufferPointer { bodyBytes in
                headerBytes.withMemoryRebound(to: CChar.self) { headerChars in
                    assent_http_respond(
                        connection, UInt32(response.status),
                        headerChars.baseAddress, headerChars.count,
                        bodyBytes.baseAddress, bodyBytes.count
                    )
                }
            }
        }
        switch Int(result) {
        case Int(ASSENT_HTTP_RESPOND_OK):
            state.stage = .responded
            state.status = response.status
            state.bytesOut = response.body.count
            return true
        case Int(ASSENT_HTTP_RESPOND_BAD_HEADER) where response.status != 500:
            logger.error("libmicrohttpd rejected a response header", [
                "requestId": .string(state.requestID), "route": .string(state.route),
            ])
            return respond(state, connection, Self.internalError())
        default:
            logger.error("could not queue a response", [
                "requestId": .string(state.requestID), "route": .string(state.route), "result": .int(Int(result)),
            ])
            return false
        }
    }

    /// The response's headers as `name\0value\0` pairs for the shims, without
    /// the managed ones, plus `X-Request-Id` (and `Connection: close`).
    func headerBlock(_ response: HTTPResponse, _ state: RequestState, connectionClose: Bool) -> [UInt8] {
        var block: [UInt8] = []
        block.reserveCapacity(128)
        func add(_ name: String, _ value: String) {
            block.append(contentsOf: name.utf8)
            block.append(0)
            block.append(contentsOf: value.utf8)
            block.append(0)
        }
        for (name, value) in response.headers where !Self.isManagedHeader(name) {
            add(name, value)
        }
        add("X-Request-Id", state.requestID)
        if connectionClose { add("Connection", "close") }
        return block
    }

    /// Headers libmicrohttpd or this server set themselves.
    private static func isManagedHeader(_ name: String) -> Bool {
        HTTPHeaders.namesEqual(name, "Content-Length")
            || HTTPHeaders.namesEqual(name, "Transfer-Encoding")
            || HTTPHeaders.namesEqual(name, "X-Request-Id")
            || HTTPHeaders.namesEqual(name, "Connection")
    }

    /// Whether the status is in 200...599 (an informational 1xx cannot end a
    /// request; `101` comes only from an accepted WebSocket handshake) and
    /// every header is a token name with a value free of CR, LF and NUL.
    static func isSendable(_ response: HTTPResponse) -> Bool {
        guard (200...599).contains(response.status) else { return false }
        for (name, value) in response.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { return false }
            guard !value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else { return false }
        }
        return true
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private func payloadTooLarge() -> HTTPResponse {
        .error(413, code: "payload_too_large", description: "The request body is larger than \(configuration.maxBodyBytes) bytes.")
    }

    static func internalError() -> HTTPResponse {
        .error(500, code: "internal_error", description: "The server could not answer this request.")
    }

    static func shuttingDown() -> HTTPResponse {
        .error(503, code: "shutting_down", description: "The server is shutting down; retry later.")
    }

    // MARK: - Connection data

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        guard let value = assent_http_header(connection, name) else { return nil }
        return String(cString: value)
    }

    private func headers(_ connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            assent_http_headers(connection, { context, name, nameLength, value, valueLength in
                let headers = context!.assumingMemoryBound(to: HTTPHeaders.self)
                headers.pointee.add(
                    ServerCore.string(name, nameLength),
                    ServerCore.string(value, valueLength)
                )
            }, pointer)
        }
        return headers
    }

    private static func string(_ pointer: UnsafePointer<CChar>, _ length: Int) -> String {
        pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    private func clientAddress(_ connection: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard assent_http_client_address(connection, buffer.baseAddress!, buffer.count) == 0 else { return "unknown" }
            return String(cString: buffer.baseAddress!)
        }
    }

    // MARK: - Helpers

    static func milliseconds(_ seconds: Double) -> Double {
        (seconds * 1_000_000).rounded() / 1000
    }

    static func terminationName(_ code: Int32) -> String {
        switch code {
        case 0: "completed"
        case 1: "error"
        case 2: "timeout"
        case 3: "daemon_shutdown"
        case 4: "read_error"
        case 5: "client_abort"
        default: "unknown_\(code)"
        }
    }
}
