import AssentCrypto
import Dispatch
import Synchronization

/// Runs one (scenario, concurrency) level: `concurrency` OS threads, each owning
/// one keep-alive connection and running the scenario's flow in a closed loop —
/// first through the warm-up (not recorded), then through the measured window.
///
/// A flow is recorded when it *starts* inside the measured window; a flow still
/// running at the end is awaited and recorded, so slow tails are never dropped.
struct LoadRunner: Sendable {
    /// The instances; connection `i` talks to `endpoints[i % count]`.
    var endpoints: [Endpoint]
    /// `Basic base64(secret + ":")`. Never print it.
    var secretAuthorization: String
    var usersPerConnection: Int
    /// The tenant ID for scenarios that call the client API as a device.
    var tenantID: String?
    /// `--seeded-users`, and the seed their keys derive from.
    var seededUsers: Int? = nil
    var seed = SeededDevice.defaultSeed
    var timeoutSeconds: Double
    var warmupSeconds: Double
    var durationSeconds: Double

    func run(_ scenario: any Scenario.Type, concurrency: Int) throws(BenchError) -> LevelResult {
        try runLevel(scenario, concurrency: concurrency)
    }

    /// Tries at connecting and preparing a connection before the run is abandoned.
    private static let setupAttempts = 3

    private struct Window {
        var start: UInt64
        var end: UInt64
    }

    /// What the main thread and the workers of one level share.
    private final class LevelState: Sendable {
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        /// Set before `go` is signalled; nil tells the workers to stop without running.
        let window = Mutex<Window?>(nil)
        let setupErrors = Mutex<[BenchError]>([])
        let tallies = Mutex<[WorkerTally]>([])
    }

    private func runLevel<S: Scenario>(_: S.Type, concurrency: Int) throws(BenchError) -> LevelResult {
        let state = LevelState()
        var threads: [WorkerThread] = []
        defer { threads.forEach { $0.join() } }
        for index in 0..<concurrency {
            let settings = ScenarioSettings(
                connection: index, secretAuthorization: secretAuthorization, usersPerConnection: usersPerConnection,
                tenantID: tenantID, connections: concurrency, seededUsers: seededUsers, seed: seed)
            do {
                let endpoint = endpoints[index % endpoints.count]
                threads.append(try WorkerThread { [self] in work(S.self, endpoint: endpoint, settings: settings, state: state) })
            } catch {
                for _ in threads { state.go.signal() }
                throw error
            }
        }
        for _ in threads { state.ready.wait() }

        let setupErrors = state.setupErrors.withLock { $0 }
        if let first = setupErrors.first {
            for _ in threads { state.go.signal() }
            let share = setupErrors.count > 1 ? " (\(setupErrors.count) of \(concurrency) connections)" : ""
            throw BenchError(first.code, label: first.label, reason: first.reason + share)
        }

        let start = MonotonicClock.now() &+ MonotonicClock.nanoseconds(fromSeconds: warmupSeconds)
        let window = Window(start: start, end: start &+ MonotonicClock.nanoseconds(fromSeconds: durationSeconds))
        state.window.withLock { $0 = window }
        for _ in threads { state.go.signal() }
        threads.forEach { $0.join() }

        var total = WorkerTally(stepCount: S.steps.count)
        for tally in state.tallies.withLock({ $0 }) { total.merge(tally) }
        return LevelResult(
            scenario: S.name, stepNames: S.steps, concurrency: concurrency,
            durationSeconds: durationSeconds, tally: total)
    }

    /// One connection's whole life: connect, prepare, wait for the start, loop, report.
    private func work<S: Scenario>(_: S.Type, endpoint: Endpoint, settings: ScenarioSettings, state: LevelState) {
        let connection = HTTPConnection(endpoint: endpoint, timeoutSeconds: timeoutSeconds)
        var session = S(settings: settings)
        var setupError: BenchError?
        for _ in 1...Self.setupAttempts {
            do {
                if !connection.isConnected { try connection.connect() }
                try session.prepare(connection)
                setupError = nil
                break
            } catch {
                setupError = error
            }
        }
        let setupFailed = setupError != nil
        if let setupError { state.setupErrors.withLock { $0.append(setupError) } }
        state.ready.signal()
        state.go.wait()
        guard !setupFailed, let window = state.window.withLock({ $0 }) else { return }

        let flow = FlowContext(connection: connection, stepCount: S.steps.count)
        var connectsBeforeWindow: Int?
        while true {
            let start = MonotonicClock.now()
            if start >= window.end { break }
            flow.isMeasuring = start >= window.start
            if flow.isMeasuring && connectsBeforeWindow == nil {
                connectsBeforeWindow = connection.connectCount
            }
            var succeeded = true
            do {
                try session.runFlow(flow)
            } catch {
                succeeded = false
            }
            flow.finishFlow(startedAt: start, succeeded: succeeded)
        }
        flow.noteReconnects(connection.connectCount - (connectsBeforeWindow ?? connection.connectCount))
        connection.close()
        let tally = flow.tally
        state.tallies.withLock { $0.append(tally) }
    }
}
