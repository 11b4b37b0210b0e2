/// The merged measurements of one (scenario, concurrency) level.
struct LevelResult: Sendable {
    var scenario: String
    var stepNames: [String]
    var concurrency: Int
    var durationSeconds: Double
    var tally: WorkerTally

    /// One reported line: a whole flow, or one step of it.
    struct Row: Sendable {
        var scenario: String
        /// nil for the flow row (and for single-step scenarios).
        var step: String?
        /// `"request"` or `"flow"`.
        var unit: String
        var concurrency: Int
        var durationSeconds: Double
        var latency: LatencyHistogram
        var errors: Int

        /// Measured attempts, failed ones included.
        var total: Int { Int(latency.count) + errors }
        /// Attempts per second, failed ones included.
        var rate: Double { Double(total) / durationSeconds }
    }

    var isMultiStep: Bool { stepNames.count > 1 }

    /// Failed flows (for a single-step scenario, failed requests).
    var errorCount: Int { tally.flowErrors }

    /// The flow row first, then one row per step; a single-step scenario has one row.
    var rows: [Row] {
        if !isMultiStep {
            return [row(step: nil, unit: "request", latency: tally.steps[0], errors: tally.stepErrors[0])]
        }
        var rows = [row(step: nil, unit: "flow", latency: tally.flow, errors: tally.flowErrors)]
        for (index, name) in stepNames.enumerated() {
            rows.append(row(step: name, unit: "request", latency: tally.steps[index], errors: tally.stepErrors[index]))
        }
        return rows
    }

    private func row(step: String?, unit: String, latency: LatencyHistogram, errors: Int) -> Row {
        Row(
            scenario: scenario, step: step, unit: unit, concurrency: concurrency,
            durationSeconds: durationSeconds, latency: latency, errors: errors)
    }
}
