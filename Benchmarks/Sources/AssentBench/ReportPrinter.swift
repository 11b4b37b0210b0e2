import Foundation

/// Writes results to standard output as a Markdown table (rows appear as each
/// level finishes, error details after the table) or as JSON lines.
struct ReportPrinter {
    var json: Bool
    private var headerPrinted = false
    private var errorNotes: [String] = []

    init(json: Bool) {
        self.json = json
    }

    mutating func machine(_ machine: MachineInfo, endpoints: [Endpoint], configuration: BenchConfiguration) {
        let servers = endpoints.map(\.description).joined(separator: ",")
        if json {
            emit(JSONText.object([
                ("type", JSONText.quoted("machine")),
                ("cores", String(machine.cores)),
                ("cpu", JSONText.quoted(machine.cpuModel)),
                ("kernel", JSONText.quoted(machine.kernel)),
                ("url", JSONText.quoted(servers)),
                ("warmupSeconds", number(configuration.warmupSeconds)),
                ("durationSeconds", number(configuration.durationSeconds)),
                ("seededUsers", configuration.seededUsers.map(String.init) ?? "null"),
            ]))
        } else {
            emit("Machine: \(machine.cores) cores, \(machine.cpuModel), \(machine.kernel)")
            emit("Server\(endpoints.count > 1 ? "s" : ""): \(servers); warm-up \(seconds(configuration.warmupSeconds)), measured \(seconds(configuration.durationSeconds)) per row"
                + (configuration.seededUsers.map { "; as \($0) seeded users" } ?? ""))
            emit("")
        }
    }

    mutating func level(_ result: LevelResult) {
        if json {
            for row in result.rows { emit(jsonLine(row, result: result)) }
            return
        }
        if !headerPrinted {
            emit("| scenario | concurrency | requests | req/s | p50 ms | p99 ms | errors |")
            emit("|---|---:|---:|---:|---:|---:|---:|")
            headerPrinted = true
        }
        for row in result.rows {
            let name = row.step.map { "\(row.scenario) › \($0)" } ?? (result.isMultiStep ? "\(row.scenario) (flows)" : row.scenario)
            let errors = row.errors > 0 ? "**\(row.errors)**" : "0"
            emit("| \(name) | \(row.concurrency) | \(row.total) | \(String(format: "%.1f", row.rate)) | \(milliseconds(row.latency.value(atQuantile: 0.5))) | \(milliseconds(row.latency.value(atQuantile: 0.99))) | \(errors) |")
        }
        if !result.tally.errorKinds.isEmpty {
            let kinds = result.tally.errorKinds.sorted { $0.value.count > $1.value.count }
            var note = "- \(result.scenario) @ \(result.concurrency): \(result.errorCount) failed"
            for (label, kind) in kinds {
                note += "\n  - \(kind.count) × \(label)"
                if !label.contains(kind.firstReason) { note += " — first: \(kind.firstReason)" }
            }
            errorNotes.append(note)
        }
        if result.tally.reconnects > 0 {
            errorNotes.append("- \(result.scenario) @ \(result.concurrency): \(result.tally.reconnects) new connections during the measured window (server closed keep-alive connections or requests failed)")
        }
    }

    /// Prints what follows the table: error details, if any.
    mutating func finish() {
        guard !json, !errorNotes.isEmpty else { return }
        emit("")
        emit("Errors and notes:")
        errorNotes.forEach { emit($0) }
    }

    private func jsonLine(_ row: LevelResult.Row, result: LevelResult) -> String {
        let latency = row.latency
        var fields: [(String, String)] = [
            ("type", JSONText.quoted("result")),
            ("scenario", JSONText.quoted(row.scenario)),
            ("step", row.step.map(JSONText.quoted) ?? "null"),
            ("unit", JSONText.quoted(row.unit)),
            ("concurrency", String(row.concurrency)),
            ("durationSeconds", number(row.durationSeconds)),
            ("requests", String(row.total)),
            ("ok", String(latency.count)),
            ("errors", String(row.errors)),
            ("requestsPerSecond", String(format: "%.1f", row.rate)),
            ("p50Ms", jsonMilliseconds(latency.value(atQuantile: 0.5))),
            ("p90Ms", jsonMilliseconds(latency.value(atQuantile: 0.9))),
            ("p99Ms", jsonMilliseconds(latency.value(atQuantile: 0.99))),
            ("maxMs", jsonMilliseconds(latency.count > 0 ? latency.max : nil)),
            ("meanMs", latency.mean.map { String(format: "%.3f", $0 / 1e6) } ?? "null"),
        ]
        if row.step == nil {
            let kinds = result.tally.errorKinds.sorted { $0.key < $1.key }.map { ($0.key, String($0.value.count)) }
            fields.append(("errorKinds", JSONText.object(kinds)))
            fields.append(("reconnects", String(result.tally.reconnects)))
        }
        return JSONText.object(fields)
    }

    private func milliseconds(_ nanoseconds: UInt64?) -> String {
        nanoseconds.map { String(format: "%.3f", Double($0) / 1e6) } ?? "–"
    }

    private func jsonMilliseconds(_ nanoseconds: UInt64?) -> String {
        nanoseconds.map { String(format: "%.3f", Double($0) / 1e6) } ?? "null"
    }

    private func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private func seconds(_ value: Double) -> String { "\(number(value)) s" }

    private func emit(_ line: String) {
        print(line)
        fflush(nil)
    }
}
