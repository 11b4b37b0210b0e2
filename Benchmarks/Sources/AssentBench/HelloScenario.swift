/// `GET /bench/hello` in a loop: the request ceiling. The route answers a fixed small JSON object after the same
/// router, metrics, rate limiter and access log as the API, so this row is what a request costs before any handler
/// work. Run it in the same run as `push-flow`: push-flow's requests per second (flows × 6) over this row's is the
/// fraction of the ceiling the flows reach. The server must run with `assentd --bench-routes`.
struct HelloScenario: Scenario {
    static let name = "hello"
    static let summary = "GET /bench/hello, a fixed answer (the request ceiling; needs assentd --bench-routes)"
    static let steps = ["hello"]

    private let request = HTTPRequest(method: "GET", path: "/bench/hello", authorization: nil)

    init(settings: ScenarioSettings) {}

    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {
        let response = try connection.send(request)
        guard response.isSuccess else {
            let hint = response.status == 404 ? " (start assentd with --bench-routes)" : ""
            throw BenchError(
                .setupFailed, label: "setup: hello failed",
                reason: "GET /bench/hello answered HTTP \(response.status)\(hint): \(response.bodySnippet())")
        }
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        try flow.perform(0, request, expecting: "a \"hello\"") { $0.hasJSONKey("hello") ? () : nil }
    }
}
