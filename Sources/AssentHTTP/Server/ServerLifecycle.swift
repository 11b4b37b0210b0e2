/// The life of an ``HTTPServer``: idle → running → draining → stopped.
///
/// A pure state machine; the server holds it in a mutex and performs the
/// actions it returns. Generic over the daemon handle so it can be tested
/// without libmicrohttpd.
enum ServerLifecycle<Daemon: Sendable>: Sendable {
    case idle
    case running(Daemon, port: Int)
    case draining(port: Int)
    case stopped(port: Int?)

    /// What `shutdown()` should do.
    enum ShutdownAction: Sendable {
        /// Drain and stop this daemon, then call ``finishShutdown()``.
        case drain(Daemon)
        /// Another call is draining; wait until the state is `stopped`.
        case waitForOtherShutdown
        /// Nothing to do.
        case none
    }

    /// Throws unless a start may begin.
    func checkCanStart() throws(HTTPServerError) {
        switch self {
        case .idle: return
        case .running, .draining: throw HTTPServerError(.alreadyStarted, "the server is already running")
        case .stopped: throw HTTPServerError(.alreadyStopped, "the server was shut down; create a new one")
        }
    }

    /// Records a successful start.
    mutating func started(_ daemon: Daemon, port: Int) {
        guard case .idle = self else { preconditionFailure("started() outside idle: \(self)") }
        self = .running(daemon, port: port)
    }

    /// Begins a shutdown and says what to do.
    mutating func beginShutdown() -> ShutdownAction {
        switch self {
        case .idle:
            self = .stopped(port: nil)
            return .none
        case .running(let daemon, let port):
            self = .draining(port: port)
            return .drain(daemon)
        case .draining:
            return .waitForOtherShutdown
        case .stopped:
            return .none
        }
    }

    /// Records the end of a drain.
    mutating func finishShutdown() {
        guard case .draining(let port) = self else { preconditionFailure("finishShutdown() outside draining: \(self)") }
        self = .stopped(port: port)
    }

    /// The bound port while running or after; `nil` before start.
    var boundPort: Int? {
        switch self {
        case .idle: nil
        case .running(_, let port), .draining(let port): port
        case .stopped(let port): port
        }
    }

    /// Whether the server has stopped.
    var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }
}
