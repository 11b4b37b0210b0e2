import AssentSync

/// Per-request state, kept in libmicrohttpd's `*con_cls` as a retained box.
///
/// Created when the request line arrives (URI log callback), released in the
/// request-completed callback, which libmicrohttpd calls for every request it
/// announced, including aborted ones.
///
/// Thread use: every stored `var` is touched only from libmicrohttpd callbacks
/// for this connection, which run on the one worker thread that owns the
/// connection and never at the same time. The handler task touches only
/// ``outcome``, which is behind a mutex; hence `@unchecked Sendable`.
final class RequestState: @unchecked Sendable {
    /// Where the request is in its life, as seen from libmicrohttpd's callbacks.
    enum Stage {
        /// The request line is read; the access handler has not been called yet.
        case awaitingFirstCall
        /// Headers are read; body pieces (if any) are arriving.
        case receivingBody
        /// The body went past the cap; the rest is read and discarded, then `413`.
        case bodyTooLarge
        /// The handler runs in a task and the connection is suspended.
        case dispatched
        /// A response is queued.
        case responded
    }

    /// The handler's result, shared between the handler task, the shutdown
    /// sweep and the access handler.
    enum Outcome {
        /// No handler started yet.
        case idle
        /// The handler runs; the connection is suspended.
        case running
        /// A response is waiting to be queued; the connection has been (or is
        /// being) resumed. With an upgrade, the response is the `101` of an
        /// accepted WebSocket handshake.
        case ready(HTTPResponse, PendingUpgrade?)
        /// The response was queued.
        case taken
    }

    let startedAt: ContinuousClock.Instant
    /// The raw request target (path and query) as received.
    let target: String

    var stage = Stage.awaitingFirstCall
    var method = ""
    var requestID = ""
    var remoteAddress = ""
    var body: [UInt8] = []
    var bytesIn = 0
    var route = "unmatched"
    var status: Int?
    var bytesOut = 0
    /// The response closes the connection (`Connection: close`), e.g. after a request whose framing is ambiguous.
    var closeAfterResponse = false
    /// An accepted WebSocket upgrade whose `101` is queued, waiting for
    /// libmicrohttpd to hand the socket over (on this connection's thread).
    var upgrade: PendingUpgrade?

    let outcome = AssentLock(Outcome.idle)

    init(target: String, startedAt: ContinuousClock.Instant) {
        self.target = target
        self.startedAt = startedAt
    }

    /// The raw path: the target up to the first `?`.
    var path: String {
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<question])
    }

    /// The raw query: the target after the first `?`, or `nil`.
    var rawQuery: String? {
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return String(target[target.utf8.index(after: question)...])
    }

    /// Moves `running` to `ready(response, upgrade)`; returns whether the caller must resume the connection.
    func complete(with response: HTTPResponse, upgrade: PendingUpgrade? = nil) -> Bool {
        outcome.withLock { outcome in
            guard case .running = outcome else { return false }
            outcome = .ready(response, upgrade)
            return true
        }
    }

    /// Takes a ready response for queuing. Whatever the outcome was, it is
    /// `taken` afterwards, so a handler still running can no longer resume
    /// the connection.
    func takeResponse() -> (HTTPResponse, PendingUpgrade?)? {
        outcome.withLock { outcome in
            defer { outcome = .taken }
            guard case .ready(let response, let upgrade) = outcome else { return nil }
            return (response, upgrade)
        }
    }

    /// Called when libmicrohttpd ends the request: a handler still running
    /// must not touch the connection any more. Returns whether one was running.
    func abandon() -> Bool {
        outcome.withLock { outcome in
            guard case .running = outcome else { return false }
            outcome = .taken
            return true
        }
    }
}

/// A libmicrohttpd connection pointer that may cross to the handler task.
///
/// Only used to resume the connection, which libmicrohttpd allows from any
/// thread; a suspended connection is never freed until it is resumed.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
