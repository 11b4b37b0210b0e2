public import Assent
public import Foundation
import AssentSync

/// A ``Assent/Transport`` for tests: it records every request and answers from canned responses keyed by
/// `METHOD /path` (the URL's path without its query), so an SDK call can be checked on the wire without a server.
///
/// A route answers its responses in the order they were added and then repeats the last one; a route with no
/// responses is a 404 without a body (what the SDK reads as "endpoint not found"). A route may instead fail as if
/// the server could not be reached (``unreachable(_:_:)``), which the SDK reports as `network_error`.
///
/// ```swift
/// let transport = FakeTransport()
/// transport.on("GET", "/v1/client/user-authenticators/push/challenge",
///              json: #"{"userAuthenticatorId":"ua_1","challengeId":null,"userId":null}"#)
/// let assent = Assent(tenantID: "acme", baseURL: "http://assent.test/v1", keyStore: InMemoryKeyStore(),
///                     transport: transport, clock: ManualClock().clock)
/// _ = await assent.push.getChallenge()
/// #expect(transport.requests("GET", "/v1/client/user-authenticators/push/challenge").count == 1)
/// ```
public final class FakeTransport: Transport {
    /// The error a route set up with ``FakeTransport/unreachable(_:_:)`` throws: no HTTP answer arrived.
    public struct Unreachable: Error, LocalizedError {
        /// Creates the error.
        public init() {}
        /// "Could not connect to the server."
        public var errorDescription: String? { "Could not connect to the server." }
    }

    private struct State {
        var routes: [String: [Result<TransportResponse, Unreachable>]] = [:]
        var requests: [TransportRequest] = []
    }

    private let state = AssentLock(State())

    /// A transport with no routes: every request is recorded and answered 404 until routes are added.
    public init() {}

    /// Answers `method path` with `status` and `json` as the body (appended after earlier answers for the route).
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PATCH`, ...
    ///   - path: The URL path, e.g. `/v1/client/user-authenticators/push` (the query is not part of it).
    ///   - status: The HTTP status (200 by default).
    ///   - json: The body, sent as given.
    public func on(_ method: String, _ path: String, status: Int = 200, json: String) {
        on(method, path, TransportResponse(status: status, body: Data(json.utf8)))
    }

    /// Answers `method path` with `response` (appended after earlier answers for the route).
    public func on(_ method: String, _ path: String, _ response: TransportResponse) {
        state.withLock { $0.routes["\(method) \(path)", default: []].append(.success(response)) }
    }

    /// Fails `method path` with ``Unreachable``, as if the server could not be reached (appended after earlier
    /// answers for the route).
    public func unreachable(_ method: String, _ path: String) {
        state.withLock { $0.routes["\(method) \(path)", default: []].append(.failure(Unreachable())) }
    }

    /// Every request sent, in order.
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// The requests sent to `method path`, in order.
    public func requests(_ method: String, _ path: String) -> [TransportRequest] {
        requests.filter { $0.method == method && $0.url.path == path }
    }

    /// Records `request` and answers the route's next response (a 404 without a body when it has none).
    ///
    /// - Throws: ``Unreachable`` when the route was set up with ``unreachable(_:_:)``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let answer: Result<TransportResponse, Unreachable>? = state.withLock { state in
            state.requests.append(request)
            let key = "\(request.method) \(request.url.path)"
            guard var answers = state.routes[key], let first = answers.first else { return nil }
            if answers.count > 1 {
                answers.removeFirst()
                state.routes[key] = answers
            }
            return first
        }
        guard let answer else { return TransportResponse(status: 404) }
        return try answer.get()
    }
}
