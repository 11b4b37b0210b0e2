/// Runs the steps of one flow on a connection, timing each and recording it into
/// the thread's ``WorkerTally`` when the flow started inside the measured window.
final class FlowContext {
    let connection: HTTPConnection
    private(set) var tally: WorkerTally
    /// Set by the runner before each flow: record this flow or not (warm-up).
    var isMeasuring = false

    init(connection: HTTPConnection, stepCount: Int) {
        self.connection = connection
        tally = WorkerTally(stepCount: stepCount)
    }

    /// Sends `request` as step `step`, requires a 2xx status and that `extract`
    /// finds a value in the response; returns that value.
    ///
    /// - Parameter expecting: what `extract` looks for, for the error summary
    ///   (e.g. `a "token"`).
    /// - Throws: the step's failure, already counted; the flow should stop.
    @discardableResult
    func perform<Value>(
        _ step: Int, _ request: HTTPRequest, expecting: String, _ extract: (HTTPResponse) -> Value?
    ) throws(BenchError) -> Value {
        let start = MonotonicClock.now()
        do throws(BenchError) {
            let response = try connection.send(request)
            guard response.isSuccess else {
                throw BenchError(
                    .unexpectedStatus, label: "HTTP \(response.status)",
                    reason: "HTTP \(response.status): \(response.bodySnippet())")
            }
            guard let value = extract(response) else {
                throw BenchError(
                    .unexpectedBody, label: "2xx without \(expecting)",
                    reason: "HTTP \(response.status) without \(expecting): \(response.bodySnippet())")
            }
            if isMeasuring { tally.recordSuccess(step: step, nanoseconds: MonotonicClock.now() &- start) }
            return value
        } catch {
            if isMeasuring { tally.recordFailure(step: step, error) }
            throw error
        }
    }

    /// Sends `request` as step `step` and requires only a 2xx status.
    func perform(_ step: Int, _ request: HTTPRequest) throws(BenchError) {
        try perform(step, request, expecting: "a body") { _ in () }
    }

    /// Called by the runner after a flow ends.
    func finishFlow(startedAt start: UInt64, succeeded: Bool) {
        guard isMeasuring else { return }
        if succeeded {
            tally.flow.record(MonotonicClock.now() &- start)
        } else {
            tally.flowErrors += 1
        }
    }

    /// Called by the runner at the end: connections opened during the measured window.
    func noteReconnects(_ count: Int) {
        tally.reconnects = count
    }
}
