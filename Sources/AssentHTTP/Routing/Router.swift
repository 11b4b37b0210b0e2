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
public struct Router: Sendable {
    /// Handles one request. Handlers may suspend for as long as they need (a
    /// database commit, a long poll); the server keeps serving other
    /// connections meanwhile.
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) async -> HTTPResponse

    /// The outcome of ``match(method:path:)``.
    public enum Match: Sendable {
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
    }

    private var routes: [Route] = []

    /// Creates a router without routes.
    public init() {}

    /// Adds a route. `pattern` must start with `/`; see the type's documentation for its syntax.
    ///
    /// A pattern segment is a parameter only when it is exactly `{name}`;
    /// anything else (including `a{b}`) is a literal.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
        routes.append(Route(method: method, pattern: pattern, segments: Self.parse(pattern), handler: handler))
    }

    /// The patterns added so far, in order, with their methods.
    public var patterns: [(method: String, pattern: String)] {
        routes.map { (method: $0.method, pattern: $0.pattern) }
    }

    /// Finds the handler for `method` and the raw `path` (without query).
    public func match(method: String, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        let pathSegments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Substring($0) }
        var allowed: Set<String> = []
        var getFallback: (Handler, RouteParameters, String)?
        for route in routes {
            guard route.segments.count == pathSegments.count,
                  let parameters = Self.bind(route.segments, to: pathSegments)
            else { continue }
            if route.method == method {
                return .found(route.handler, parameters, pattern: route.pattern)
            }
            allowed.insert(route.method)
            if method == "HEAD", route.method == "GET", getFallback == nil {
                getFallback = (route.handler, parameters, route.pattern)
            }
        }
        if let getFallback {
            return .found(getFallback.0, getFallback.1, pattern: getFallback.2)
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
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
