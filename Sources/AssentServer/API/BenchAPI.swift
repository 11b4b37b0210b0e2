import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire

/// `GET /bench/hello`: the request ceiling. It answers a fixed small JSON object after the same router, metrics,
/// rate limiter (``RateLimitRule/benchHelloAddress``) and access log as every API route, so `assent-bench --scenario
/// hello` measures what a request costs before any handler work, in the same run and with the same client as the
/// flows. Served only with `--bench-routes`; otherwise `404 not_found`, as an unknown path (the route stays
/// registered, so the endpoint catalogue is still the whole API).
struct BenchAPI: Sendable {
    let enabled: Bool
    let limits: RequestLimits
    let logger: Logger

    func register(in router: inout Router) {
        router.add(.benchHello, APIResponses.handler(logger: logger) { [enabled, limits] request in
            guard enabled else { return .notFound }
            try limits.address(.benchHelloAddress, request)
            return .json(200, Self.hello)
        })
    }

    /// `{"hello":"world"}`.
    private static let hello: [UInt8] = Array(#"{"hello":"world"}"#.utf8)
}
