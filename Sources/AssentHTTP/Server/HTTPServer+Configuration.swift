#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPServer {
    /// Settings of an ``HTTPServer``, checked when the server starts.
    package struct Configuration: Sendable {
        /// The address to listen on: a numeric IPv4 or IPv6 address (`"::1"`,
        /// `"0.0.0.0"`), or a name, which binds the first address it resolves to.
        package var host = "127.0.0.1"
        /// The TCP port; `0` lets the system pick a free one (read it from ``HTTPServer/port`` after start).
        package var port = 8420
        /// libmicrohttpd worker threads (its thread pool); defaults to the number of active processors.
        package var threads = Configuration.activeProcessorCount
        /// The largest request body accepted; larger ones get `413 payload_too_large`
        /// without the handler running. A `Content-Length` over the cap is
        /// answered at once. A chunked body is read until it passes the cap;
        /// since libmicrohttpd 0.9.75 cannot answer while a body is still
        /// arriving, the rest is read and thrown away (up to
        /// `max(maxBodyBytes, 1 MiB)` more bytes) and then answered `413`; a body
        /// longer than that makes the server close the connection without an answer.
        package var maxBodyBytes = 1 << 20
        /// The largest request line plus headers (as sent) that is accepted.
        ///
        /// Two layers enforce it. libmicrohttpd keeps each connection's request
        /// line, headers, read buffer and response header in one memory pool,
        /// set here to `maxHeaderBytes + 16 KiB` (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`).
        /// A request whose head fits the pool but exceeds `maxHeaderBytes` gets
        /// a JSON `431 request_header_fields_too_large` from this server. A head
        /// that does not fit the pool at all (measured on 0.9.75: beyond about
        /// `maxHeaderBytes + 15 KiB`) is answered by libmicrohttpd itself, not in
        /// JSON: `431 Request Header Fields Too Large` (or `414 URI Too Long`
        /// when the request line alone is too long) with a short HTML body,
        /// `Connection: close`, and without `X-Request-Id`. The application never
        /// sees those requests; they are not in the access log or the metrics.
        package var maxHeaderBytes = 32 << 10
        /// Idle time after which libmicrohttpd closes a connection
        /// (`MHD_OPTION_CONNECTION_TIMEOUT`); a request whose handler is running
        /// is never timed out. `0` means no timeout.
        package var connectionTimeoutSeconds = 30
        /// The most connections open at once (`MHD_OPTION_CONNECTION_LIMIT`).
        /// libmicrohttpd splits it evenly over its threads and stops accepting
        /// while at the limit: further connections wait, unanswered, in the
        /// kernel's listen backlog (``listenBacklog``) until a slot frees.
        /// Upgraded WebSockets do not count without TLS: libmicrohttpd releases a
        /// connection once it has handed its socket over (see ``maxWebSockets``).
        /// Under ``tls`` they do, since libmicrohttpd keeps encrypting for them.
        package var maxConnections = 10_000
        /// The most connections from one IP address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`);
        /// `0` = no limit (the default, since a reverse proxy shows as one address).
        package var maxConnectionsPerIP = 0
        /// Reverse proxies whose `X-Forwarded-For` names the client (``HTTPRequest/remoteAddress``); none by default.
        package var trustedProxies = TrustedProxies()
        /// The listen backlog (pending connections the kernel queues before accept).
        package var listenBacklog = 1024
        /// How long ``HTTPServer/shutdown()`` waits for requests in flight to
        /// finish before answering the remaining ones `503 shutting_down`.
        package var shutdownGraceSeconds: Double = 10

        /// The most WebSockets open at once; further handshakes get `503
        /// too_many_websockets`. Each open WebSocket holds one file descriptor,
        /// so the process's `ulimit -n` must exceed this plus ``maxConnections``.
        package var maxWebSockets = 20_000
        /// The largest text message a client may send, summed over its
        /// fragments; a larger one closes the socket with 1009.
        package var webSocketMaxMessageBytes = 64 << 10
        /// The server pings every open WebSocket this often, and drops one
        /// from which nothing arrived for twice as long.
        package var webSocketPingIntervalSeconds: Double = 30
        /// How long a close started by the server (``WebSocket/close(code:reason:)``,
        /// shutdown) waits for the client's close frame, and how long a closed
        /// socket waits for the client to end the TCP connection.
        /// ``HTTPServer/shutdown()`` waits at most about twice this for WebSockets.
        package var webSocketCloseTimeoutSeconds: Double = 2

        /// When set, the server speaks HTTPS only (TLS 1.2 and 1.3) with these credentials, which
        /// ``TLSCredentials/reload(certificateFile:keyFile:)`` may replace while it runs. Under TLS an upgraded
        /// WebSocket stays a libmicrohttpd connection (its threads encrypt and decrypt for it), so WebSockets then do
        /// count against ``maxConnections``.
        package var tls: TLSCredentials?

        /// A configuration with the defaults above.
        package init() {}

        /// Checks every value; throws `invalidConfiguration` naming the first bad one.
        package func validate() throws(HTTPServerError) {
            func check(_ condition: Bool, _ reason: String) throws(HTTPServerError) {
                if !condition { throw HTTPServerError(.invalidConfiguration, reason) }
            }
            try check(!host.isEmpty, "host must not be empty")
            try check((0...65_535).contains(port), "port must be in 0...65535, got \(port)")
            try check((1...1024).contains(threads), "threads must be in 1...1024, got \(threads)")
            try check(maxBodyBytes >= 0, "maxBodyBytes must not be negative, got \(maxBodyBytes)")
            try check((1024...(64 << 20)).contains(maxHeaderBytes), "maxHeaderBytes must be in 1 KiB...64 MiB, got \(maxHeaderBytes)")
            try check((0...86_400).contains(connectionTimeoutSeconds), "connectionTimeoutSeconds must be in 0...86400, got \(connectionTimeoutSeconds)")
            try check((1...1_000_000).contains(maxConnections), "maxConnections must be in 1...1000000, got \(maxConnections)")
            try check((0...1_000_000).contains(maxConnectionsPerIP), "maxConnectionsPerIP must be in 0...1000000, got \(maxConnectionsPerIP)")
            try check((1...65_535).contains(listenBacklog), "listenBacklog must be in 1...65535, got \(listenBacklog)")
            try check(shutdownGraceSeconds >= 0 && shutdownGraceSeconds.isFinite, "shutdownGraceSeconds must be a finite number >= 0")
            try check((1...1_000_000).contains(maxWebSockets), "maxWebSockets must be in 1...1000000, got \(maxWebSockets)")
            try check((125...(64 << 20)).contains(webSocketMaxMessageBytes), "webSocketMaxMessageBytes must be in 125...64 MiB, got \(webSocketMaxMessageBytes)")
            try check(webSocketPingIntervalSeconds >= 0.05 && webSocketPingIntervalSeconds <= 86_400, "webSocketPingIntervalSeconds must be in 0.05...86400")
            try check(webSocketCloseTimeoutSeconds >= 0 && webSocketCloseTimeoutSeconds <= 60, "webSocketCloseTimeoutSeconds must be in 0...60")
        }

        /// libmicrohttpd's per-connection memory pool size for ``maxHeaderBytes``.
        var connectionMemoryLimit: Int { maxHeaderBytes + 16 << 10 }

        /// The WebSocket settings for the I/O thread.
        var webSocketSettings: WebSocketLoop.Settings {
            WebSocketLoop.Settings(
                maxMessageBytes: webSocketMaxMessageBytes,
                pingInterval: .milliseconds(Int64(webSocketPingIntervalSeconds * 1000)),
                closeTimeout: .milliseconds(Int64(webSocketCloseTimeoutSeconds * 1000))
            )
        }

        /// How much the read buffer grows at a time.
        var connectionMemoryIncrement: Int { 4 << 10 }

        /// How many body bytes past ``maxBodyBytes`` are read and thrown away so
        /// that a chunked upload can still be answered `413`; past that the
        /// connection is closed without an answer.
        var maxDiscardedBodyBytes: Int { max(maxBodyBytes, 1 << 20) }

        static var activeProcessorCount: Int {
            max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }
    }
}
