/// Maps a method and a raw path to a handler.
///
/// Patterns are paths such as `/v1/users/{userId}/actions/{action}`: a literal
/// segment matches the raw segment exactly (no decoding, case-sensitive), and
/// `{name}` matches any one non-empty segment, whose value is percent-decoded
/// (`%XX` to UTF-8; an invalid escape or invalid UTF-8 means no match). Segments
/// are split on `/` in the raw path, so `a%2Fb` is one segment with the value
/// `a/b`. Routes are tried in the order they were added; the first match wins.
///
/// `HEAD` falls back to the `GET` route of the same pattern when no `HEAD`
/// route was added (libmicrohttpd sends the headers without the body).
///
/// WebSocket routes (``addWebSocket(_:_:)``) are `GET` routes whose requests
/// the server answers with the RFC 6455 handshake instead of a handler call.
///
/// A fallback (``addFallback(under:_:)``) answers, for any method, a path under
/// its prefix that no route matches; elsewhere such a path is `404 not_found`.
package struct Router: Sendable {
    /// Handles one request. Handlers may suspend for as long as they need (a
    /// database commit, a long poll); the server keeps serving other
    /// connections meanwhile.
    package typealias Handler = @Sendable (HTTPRequest, RouteParameters) async -> HTTPResponse

    /// The outcome of ``match(method:path:)``.
    package enum Match: Sendable {
        /// A route matched; `pattern` is the route's pattern as added (for logs and metrics).
        case found(Handler, RouteParameters, pattern: String)
        /// Some route matches the path, but none for this method; `allowed` is sorted.
        case methodNotAllowed(allowed: [String])
        /// No route matches the path.
        case notFound
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Segment]
        let handler: Handler
        /// Set for WebSocket routes; ``handler`` then only answers `426`.
        let webSocket: (any WebSocketHandler)?
    }

    /// What the server does with a request: ``match(method:path:)`` plus WebSocket routes.
    enum Resolution: Sendable {
        case handler(Handler, RouteParameters, pattern: String)
        case webSocket(any WebSocketHandler, RouteParameters, pattern: String)
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    private var routes: [Route] = []
    private var fallbacks: [(prefix: String, handler: Handler)] = []

    /// Creates a router without routes.
    package init() {}

    /// Adds a route. `pattern` must start with `/`; see the type's documentation for its syntax.
    ///
    /// A pattern segment is a parameter only when it is exactly `{name}`;
    /// anything else (including `a{b}`) is a literal.
    package mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
        routes.append(Route(method: method, pattern: pattern, segments: Self.parse(pattern), handler: handler, webSocket: nil))
    }

    /// Adds a WebSocket route: a `GET` on `pattern` that carries a valid
    /// RFC 6455 handshake is offered to `handler`, which accepts it (the server
    /// answers `101` and the connection becomes a ``WebSocket``) or rejects it.
    /// A `GET` without a valid handshake gets a JSON error: `426
    /// upgrade_required` without `Upgrade: websocket`, `426
    /// unsupported_websocket_version` (with `Sec-WebSocket-Version: 13`) for
    /// another version, `400 bad_websocket_handshake` otherwise.
    ///
    /// Seen through ``match(method:path:)`` the route is an ordinary `GET`
    /// route whose handler answers `426 upgrade_required`.
    package mutating func addWebSocket(_ pattern: String, _ handler: any WebSocketHandler) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
        routes.append(Route(
            method: "GET", pattern: pattern, segments: Self.parse(pattern),
            handler: { _, _ in WebSocketHandshake.upgradeRequired() }, webSocket: handler
        ))
    }

    /// Adds a fallback: `handler` answers every request whose path starts with `prefix` (e.g. `/admin/`) and that
    /// no route matches, for any method; it sees the route pattern `prefix` followed by `*`. A path that some route
    /// matches for another method is still `405`. The first fallback added whose prefix matches wins.
    package mutating func addFallback(under prefix: String, _ handler: @escaping Handler) {
        precondition(prefix.hasPrefix("/"), "fallback prefix must start with '/': \(prefix)")
        fallbacks.append((prefix: prefix, handler: handler))
    }

    /// Whether any WebSocket route was added (the server then enables upgrades).
    var hasWebSocketRoutes: Bool { routes.contains { $0.webSocket != nil } }

    /// The patterns added so far, in order, with their methods.
    package var patterns: [(method: String, pattern: String)] {
        routes.map { (method: $0.method, pattern: $0.pattern) }
    }

    /// Finds the handler for `method` and the raw `path` (without query).
    package func match(method: String, path: String) -> Match {
        switch resolve(method: method, path: path) {
        case .handler(let handler, let parameters, let pattern): .found(handler, parameters, pattern: pattern)
        case .webSocket(_, let parameters, let pattern): .found({ _, _ in WebSocketHandshake.upgradeRequired() }, parameters, pattern: pattern)
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        case .notFound: .notFound
        }
    }

    /// Finds what handles `method` on the raw `path`; like ``match(method:path:)``
    /// but tells WebSocket routes apart.
    func resolve(method: String, path: String) -> Resolution {
        guard path.hasPrefix("/") else { return .notFound }
        let pathSegments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Substring($0) }
        var allowed: Set<String> = []
        var getFallback: (Route, RouteParameters)?
        for route in routes {
            guard route.segments.count == pathSegments.count,
                  let parameters = Self.bind(route.segments, to: pathSegments)
            else { continue }
            if route.method == method {
                return Self.resolution(route, parameters)
            }
            allowed.insert(route.method)
            if method == "HEAD", route.method == "GET", getFallback == nil {
                getFallback = (route, parameters)
            }
        }
        if let getFallback {
            return Self.resolution(getFallback.0, getFallback.1)
        }
        if allowed.isEmpty {
            if let fallback = fallbacks.first(where: { path.hasPrefix($0.prefix) }) {
                return .handler(fallback.handler, RouteParameters(), pattern: fallback.prefix + "*")
            }
            return .notFound
        }
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    private static func resolution(_ route: Route, _ parameters: RouteParameters) -> Resolution {
        if let webSocket = route.webSocket { return .webSocket(webSocket, parameters, pattern: route.pattern) }
        return .handler(route.handler, parameters, pattern: route.pattern)
    }

    private static func parse(_ pattern: String) -> [Segment] {
        pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { segment in
            if segment.count > 2, segment.hasPrefix("{"), segment.hasSuffix("}") {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(String(segment))
        }
    }

    private static func bind(_ segments: [Segment], to pathSegments: [Substring]) -> RouteParameters? {
        var values: [(String, String)] = []
        for (segment, raw) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard raw == literal else { return nil }
            case .parameter(let name):
                guard !raw.isEmpty, let decoded = PercentDecoding.decode(raw) else { return nil }
                values.append((name, decoded))
            }
        }
        return RouteParameters(values)
    }
}
