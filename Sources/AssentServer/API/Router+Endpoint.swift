import AssentHTTP
import AssentWire

extension Router {
    /// Adds the route of `endpoint`, as the catalogue spells it.
    mutating func add(_ endpoint: Endpoint, _ handler: @escaping Handler) {
        add(endpoint.method, endpoint.path, handler)
    }

    /// Adds the page route `route`, as ``PageRoute`` spells it.
    mutating func add(_ route: PageRoute, _ handler: @escaping Handler) {
        add(route.method, route.path, handler)
    }

    /// Adds `endpoint` (a `GET`) as a WebSocket route.
    mutating func addWebSocket(_ endpoint: Endpoint, _ handler: any WebSocketHandler) {
        precondition(endpoint.method == "GET", "a WebSocket route is a GET: \(endpoint)")
        addWebSocket(endpoint.path, handler)
    }
}
