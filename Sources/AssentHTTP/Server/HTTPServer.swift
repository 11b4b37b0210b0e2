package import AssentLog
internal import CHTTPShims
import AssentSync
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd that runs ``Router`` handlers.
///
/// libmicrohttpd reads requests on a small pool of threads (epoll). When a
/// request is complete, its connection is suspended and the handler runs in a
/// Swift task; when the handler returns, the connection is resumed and the
/// response written. So any number of handlers can wait (on a database
/// commit, a long poll) while the few libmicrohttpd threads keep serving.
///
/// Every response carries `X-Request-Id`. Errors from the server itself are
/// JSON (`{"error","errorCode","errorDescription"}`): `404 not_found`,
/// `405 method_not_allowed` (with `Allow`), `413 payload_too_large`,
/// `431 request_header_fields_too_large`, `500 internal_error` (a handler's
/// response that cannot be sent: status outside 200...599, or a header name
/// that is not a token or a value with CR, LF or NUL), `503 shutting_down`.
///
/// WebSocket routes (``Router/addWebSocket(_:_:)``) answer a valid handshake
/// the handler accepts with `101`, then serve the socket from one epoll I/O
/// thread shared by all WebSockets; without TLS libmicrohttpd lets go of the
/// connection at once, so WebSockets count neither against
/// ``Configuration/maxConnections`` nor in `assent_http_open_connections`
/// (under ``Configuration/tls`` libmicrohttpd keeps the connection and
/// encrypts for it, so they count there too; they have their own gauge,
/// `assent_websocket_connections`, and cap, ``Configuration/maxWebSockets``:
/// `503 too_many_websockets`). Bad handshakes get `400
/// bad_websocket_handshake` or `426`. The `101` is in the access log like any
/// response; each closed WebSocket writes one `info` line `"websocket closed"`
/// (`socketId`, `requestId`, `route`, `remote`, `code`, `durationMs`).
///
/// Some limits and protocol errors are handled by libmicrohttpd before the
/// application sees the request. Its answers are not JSON, carry no
/// `X-Request-Id`, close the connection, and do not reach the access log or the
/// request metrics (it logs a `warning` line `"libmicrohttpd"` instead).
/// Measured on 0.9.75:
/// - a request head larger than the memory pool (see
///   ``Configuration/maxHeaderBytes``): `431` with an HTML body, or `414` when
///   the request line alone is too long;
/// - a `Content-Length` that is not a number: `400`; one beyond 64 bits: `413`
///   (HTML; 0.9.75 writes the status line and headers of these two twice);
/// - an unknown HTTP version: `505` (HTML);
/// - a request line that cannot be parsed: the connection is closed, no answer;
/// - more than ``Configuration/maxConnections`` connections: the rest are not
///   accepted and wait in the kernel's listen backlog until a slot frees;
/// - an idle connection past ``Configuration/connectionTimeoutSeconds``: closed
///   silently.
///
/// Each finished request writes one `info` line (`msg` `"request"`, fields
/// `requestId`, `method`, `route`, `status`, `durationMs`, `bytesIn`,
/// `bytesOut`, `remote`, and `terminated` when the connection did not end
/// cleanly). Headers, query strings and bodies are never logged.
package final class HTTPServer: Sendable {
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let configuration: Configuration
    private let core: ServerCore
    private let lifecycle = AssentLock(ServerLifecycle<Daemon>.idle)

    /// Creates a server; nothing is bound until ``start()``.
    package init(configuration: Configuration, router: Router, logger: Logger, metrics: HTTPMetrics) {
        self.configuration = configuration
        self.core = ServerCore(configuration: configuration, router: router, logger: logger, metrics: metrics)
    }

    deinit {
        // A server dropped without shutdown(): stop it at once rather than leak
        // the daemon and its threads. Handlers still running get 503.
        if case .drain(let daemon) = lifecycle.withLock({ $0.beginShutdown() }) {
            core.draining.store(true, ordering: .relaxed)
            _ = assent_http_quiesce(daemon.pointer)
            core.webSockets?.stopNow()
            core.forceFinishRunning()
            assent_http_stop(daemon.pointer)
            Unmanaged.passUnretained(core).release()
        }
    }

    /// The bound TCP port: after ``start()`` the real one (also when
    /// configured as `0`); before, the configured one.
    package var port: Int {
        lifecycle.withLock { $0.boundPort } ?? configuration.port
    }

    /// Binds the listen socket and starts libmicrohttpd's threads.
    ///
    /// Throws ``HTTPServerError`` with code `invalidConfiguration`,
    /// `addressInUse`, `addressNotAvailable`, `permissionDenied`,
    /// `hostNotResolved`, `bindFailed`, `daemonStartFailed`, `alreadyStarted`
    /// or `alreadyStopped`.
    package func start() throws {
        try configuration.validate()
        try lifecycle.withLock { (state) throws(HTTPServerError) in
            try state.checkCanStart()
            var fd: Int32 = -1
            var boundPort: UInt16 = 0
            var ipv6: Int32 = 0
            let bindResult = assent_http_listen(
                configuration.host, UInt16(configuration.port), Int32(configuration.listenBacklog),
                &fd, &boundPort, &ipv6
            )
            guard bindResult == 0 else { throw Self.bindError(bindResult, host: configuration.host, port: configuration.port) }

            var options = assent_http_options(
                thread_pool_size: UInt32(configuration.threads),
                connection_limit: UInt32(configuration.maxConnections),
                per_ip_connection_limit: UInt32(configuration.maxConnectionsPerIP),
                connection_timeout_seconds: UInt32(configuration.connectionTimeoutSeconds),
                connection_memory_limit: configuration.connectionMemoryLimit,
                connection_memory_increment: configuration.connectionMemoryIncrement,
                ipv6: ipv6,
                allow_upgrade: core.webSockets == nil ? 0 : 1,
                tls: configuration.tls?.pointer
            )
            if let webSockets = core.webSockets, !webSockets.start() {
                close(fd)
                throw HTTPServerError(.daemonStartFailed, "the WebSocket I/O thread did not start")
            }
            let context = Unmanaged.passRetained(core).toOpaque()
            var callbacks = MHDCallbacks.table(context: context)
            guard let daemon = assent_http_start(fd, &options, &callbacks) else {
                core.webSockets?.stopNow()
                Unmanaged<ServerCore>.fromOpaque(context).release()
                throw HTTPServerError(.daemonStartFailed, "libmicrohttpd did not start (see its log lines)")
            }
            state.started(Daemon(pointer: daemon), port: Int(boundPort))
        }
        core.logger.info("http server started", [
            "host": .string(configuration.host), "port": .int(port), "threads": .int(configuration.threads),
            "tls": .bool(configuration.tls != nil),
        ])
    }

    /// Stops gracefully: stops accepting at once (new connections are
    /// refused), lets requests in flight finish and their responses be fully
    /// written, for at most ``Configuration/shutdownGraceSeconds``; then
    /// answers requests whose handler still runs with `503 shutting_down`,
    /// waits briefly for those answers to go out, and stops the daemon
    /// (closing idle keep-alive connections). Responses sent while draining
    /// carry `Connection: close`. Safe to call more than once and before start.
    ///
    /// Meanwhile every open WebSocket gets close 1001 at once; new handshakes
    /// get `503 shutting_down`. Sockets whose client answers the close are
    /// closed then, the others after
    /// ``Configuration/webSocketCloseTimeoutSeconds``; the WebSocket thread
    /// stops, and shutdown waits (a few seconds at most) until every
    /// ``WebSocketHandler/didClose(_:code:)`` has returned.
    package func shutdown() async {
        switch lifecycle.withLock({ $0.beginShutdown() }) {
        case .none:
            return
        case .waitForOtherShutdown:
            while !lifecycle.withLock({ $0.isStopped }) {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return
        case .drain(let daemon):
            let started = ContinuousClock.now
            core.draining.store(true, ordering: .relaxed)
            _ = assent_http_quiesce(daemon.pointer)
            core.webSockets?.beginShutdown()
            let grace = Duration.milliseconds(Int64(configuration.shutdownGraceSeconds * 1000))
            _ = await waitForRequests(until: started + grace)
            // Always, not only after the grace period: from here on no connection is suspended again (a request
            // arriving now on a kept-alive connection is answered 503 at once), and stragglers are answered, so
            // libmicrohttpd is never stopped with a suspended connection, which would abort the process.
            let forced = core.forceFinishRunning()
            _ = await waitForRequests(until: .now + .seconds(1))
            if let webSockets = core.webSockets {
                let closeTimeout = Duration.milliseconds(Int64(configuration.webSocketCloseTimeoutSeconds * 1000))
                if !(await webSockets.waitUntilFinished(until: started + closeTimeout * 2 + .seconds(3))) {
                    core.logger.warning("websocket handlers still running at shutdown", [:])
                }
            }
            assent_http_stop(daemon.pointer)
            Unmanaged.passUnretained(core).release()
            lifecycle.withLock { $0.finishShutdown() }
            core.logger.info("http server stopped", [
                "forcedResponses": .int(forced),
                "durationMs": .int(Int((ContinuousClock.now - started) / .milliseconds(1))),
            ])
        }
    }

    /// Waits until no request is in flight or `deadline` passes; returns whether none is left.
    private func waitForRequests(until deadline: ContinuousClock.Instant) async -> Bool {
        while core.liveRequests.load(ordering: .relaxed) > 0 {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Request boxes currently alive; `0` once every request has been released.
    var liveRequestCount: Int { core.liveRequests.load(ordering: .relaxed) }

    /// Whether `host:port` can be listened on now: binds it as ``start()`` would and lets it go at once. Throws the
    /// error ``start()`` would (`addressInUse` when another process holds the port). For `assentd check-config`; the
    /// answer holds only for the moment it was asked.
    package static func checkListen(host: String, port: Int) throws(HTTPServerError) {
        var fd: Int32 = -1
        var boundPort: UInt16 = 0
        var ipv6: Int32 = 0
        let result = assent_http_listen(host, UInt16(clamping: port), 1, &fd, &boundPort, &ipv6)
        guard result == 0 else { throw bindError(result, host: host, port: port) }
        close(fd)
    }

    private static func bindError(_ result: Int32, host: String, port: Int) -> HTTPServerError {
        let address = "\(host):\(port)"
        switch result {
        case -1: return HTTPServerError(.hostNotResolved, "cannot resolve host '\(host)'")
        case EADDRINUSE: return HTTPServerError(.addressInUse, "\(address) is already in use")
        case EADDRNOTAVAIL: return HTTPServerError(.addressNotAvailable, "\(host) is not an address of this machine")
        case EACCES: return HTTPServerError(.permissionDenied, "no permission to bind \(address)")
        default: return HTTPServerError(.bindFailed, "cannot listen on \(address): errno \(result)")
        }
    }
}
