/// The keep-alive rule for open sockets, as a pure function of time.
///
/// Every `interval` the server pings; a socket from which nothing at all
/// (a frame, a pong, any byte) has arrived for twice the interval is dropped.
enum WebSocketKeepalive {
    enum Action: Equatable {
        case none
        case ping
        case drop
    }

    static func action(
        now: ContinuousClock.Instant,
        lastHeard: ContinuousClock.Instant,
        lastPing: ContinuousClock.Instant,
        interval: Duration
    ) -> Action {
        if now - lastHeard >= interval * 2 { return .drop }
        if now - lastPing >= interval { return .ping }
        return .none
    }
}
