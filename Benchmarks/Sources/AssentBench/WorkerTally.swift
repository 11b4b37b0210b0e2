/// Everything one connection measured; merged across connections at the end.
///
/// Latencies are recorded for successful requests and flows only; failures are
/// counted, grouped by ``BenchError/label``, with the first reason kept per label.
struct WorkerTally: Sendable {
    var flow = LatencyHistogram()
    var flowErrors = 0
    var steps: [LatencyHistogram]
    var stepErrors: [Int]
    var errorKinds: [String: ErrorKind] = [:]
    /// TCP connections opened during the measured window (0 when the server keeps
    /// every connection alive and nothing failed).
    var reconnects = 0

    struct ErrorKind: Sendable {
        var count: Int
        var firstReason: String
    }

    init(stepCount: Int) {
        steps = Array(repeating: LatencyHistogram(), count: stepCount)
        stepErrors = Array(repeating: 0, count: stepCount)
    }

    mutating func recordSuccess(step: Int, nanoseconds: UInt64) {
        steps[step].record(nanoseconds)
    }

    mutating func recordFailure(step: Int, _ error: BenchError) {
        stepErrors[step] += 1
        if errorKinds[error.label] == nil {
            errorKinds[error.label] = ErrorKind(count: 1, firstReason: error.reason)
        } else {
            errorKinds[error.label]!.count += 1
        }
    }

    mutating func merge(_ other: WorkerTally) {
        flow.merge(other.flow)
        flowErrors += other.flowErrors
        for index in steps.indices {
            steps[index].merge(other.steps[index])
            stepErrors[index] += other.stepErrors[index]
        }
        for (label, kind) in other.errorKinds {
            if let mine = errorKinds[label] {
                errorKinds[label] = ErrorKind(count: mine.count + kind.count, firstReason: mine.firstReason)
            } else {
                errorKinds[label] = kind
            }
        }
        reconnects += other.reconnects
    }
}
