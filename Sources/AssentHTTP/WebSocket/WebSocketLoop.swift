import AssentLog
internal import CHTTPShims
import AssentSync
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one I/O thread that serves every upgraded socket of a server.
///
/// Sockets are non-blocking and watched with one level-triggered epoll set;
/// an eventfd wakes the thread when another thread submits a command (open a
/// socket, send a frame, close, shut down). Reads go into one shared 64 KiB
/// buffer; a socket keeps bytes of its own only while a frame is incomplete
/// or frames wait to be written, so an idle socket costs its bookkeeping and
/// nothing more. Handler callbacks never run here: events are posted to each
/// socket's ``WebSocketMailbox``, which runs them in a task.
final class WebSocketLoop: Sendable {
    struct Settings: Sendable {
        /// The largest text message accepted (1009 above).
        var maxMessageBytes: Int
        var pingInterval: Duration
        /// How long a server-initiated close waits for the client's close frame,
        /// and how long a closed socket waits for the client's FIN.
        var closeTimeout: Duration
        /// Frames waiting to be written beyond which the socket is dropped.
        var maxQueuedBytes = 1 << 20
        /// Received text not yet handled beyond which the socket is closed with 1008.
        var maxPendingBytes: Int {
            maxMessageBytes.multipliedReportingOverflow(by: 4).overflow ? Int.max : maxMessageBytes * 4
        }
    }

    enum Command: Sendable {
        case open(WebSocket, UpgradedSocket, extra: [UInt8])
        case send(id: UInt64, frame: [UInt8])
        case close(id: UInt64, code: UInt16, reason: String)
        case shutdown
        case stopNow
    }

    private struct Inbox {
        var commands: [Command] = []
        /// False once the thread has exited.
        var accepting = true
        /// False once shutdown has begun: upgrades arriving later are closed at once.
        var acceptingSockets = true
    }

    let settings: Settings
    let logger: Logger
    let metrics: HTTPMetrics
    fileprivate let epollFD: Int32
    fileprivate let wakeFD: Int32
    private let inbox = AssentLock(Inbox())
    private let nextID = Atomic<UInt64>(1)
    /// Sockets registered with the thread and not yet closed.
    fileprivate let openSockets = Atomic<Int>(0)
    /// Sockets announced to a handler whose `didClose` has not returned yet.
    fileprivate let unfinishedSockets = Atomic<Int>(0)
    private let threadExited = Atomic<Bool>(false)
    private let threadStarted = Atomic<Bool>(false)

    init(settings: Settings, logger: Logger, metrics: HTTPMetrics) {
        self.settings = settings
        self.logger = logger
        self.metrics = metrics
        self.epollFD = assent_ws_epoll_create()
        self.wakeFD = assent_ws_wake_create()
    }

    deinit {
        // Only reached once the thread has exited and no WebSocket refers to
        // the loop any more, so no one can wake it: closing here is safe.
        if epollFD >= 0 { Glibc.close(epollFD) }
        if wakeFD >= 0 { Glibc.close(wakeFD) }
    }

    /// Sockets currently open (for the connection cap).
    var openCount: Int { openSockets.load(ordering: .relaxed) }

    /// Starts the I/O thread; false if the epoll set, the eventfd or the
    /// thread could not be made, or if it was started before (a loop runs once).
    func start() -> Bool {
        guard !threadStarted.load(ordering: .relaxed), epollFD >= 0, wakeFD >= 0,
              assent_ws_epoll_set(epollFD, Int32(ASSENT_WS_ADD), wakeFD, UInt32(ASSENT_WS_EVENT_IN), 0) == 0
        else { return false }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 1 << 20)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&thread, &attributes, { raw in
            let loop = Unmanaged<WebSocketLoop>.fromOpaque(raw!).takeRetainedValue()
            WebSocketIOThread(loop: loop).run()
            loop.threadDidExit()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<WebSocketLoop>.fromOpaque(context).release()
            return false
        }
        threadStarted.store(true, ordering: .relaxed)
        return true
    }

    /// Hands an upgraded socket to the thread. If shutdown has begun, the socket
    /// is closed at once and no handler hears of it.
    func open(_ upgraded: UpgradedSocket, upgrade: PendingUpgrade, extra: [UInt8]) {
        let socket = WebSocket(
            id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue,
            request: upgrade.request, subprotocol: upgrade.subprotocol, route: upgrade.route,
            handler: upgrade.handler, loop: self
        )
        guard submit(.open(socket, upgraded, extra: extra)) else {
            upgraded.close()
            logger.info("websocket refused: server is shutting down", ["requestId": .string(upgrade.request.requestID)])
            return
        }
    }

    /// Queues a command and wakes the thread; false if it is not accepted
    /// (the thread is gone, or an `.open` after shutdown began).
    @discardableResult
    func submit(_ command: Command) -> Bool {
        let (accepted, wake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard inbox.accepting else { return (false, false) }
            switch command {
            case .open:
                guard inbox.acceptingSockets else { return (false, false) }
            case .shutdown, .stopNow:
                inbox.acceptingSockets = false
            case .send, .close:
                break
            }
            inbox.commands.append(command)
            return (true, inbox.commands.count == 1)
        }
        if wake { assent_ws_wake(wakeFD) }
        return accepted
    }

    /// Takes every queued command (on the I/O thread).
    fileprivate func takeCommands(final: Bool = false) -> [Command] {
        inbox.withLock { inbox in
            if final { inbox.accepting = false }
            defer { inbox.commands = [] }
            return inbox.commands
        }
    }

    /// Begins a graceful shutdown: every open socket gets close 1001, new
    /// upgrades are refused, and the thread exits once every socket is closed
    /// (at most about twice ``Settings/closeTimeout`` later).
    func beginShutdown() {
        submit(.shutdown)
    }

    /// Waits until the thread has exited and every `didClose` has returned, or `deadline`.
    func waitUntilFinished(until deadline: ContinuousClock.Instant) async -> Bool {
        while !isFinished {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Closes everything now (a server dropped without `shutdown()`): close
    /// frames are written if the socket takes them, nothing is waited for, and
    /// the call returns once the thread has exited (at most about a second).
    func stopNow() {
        guard threadStarted.load(ordering: .relaxed), submit(.stopNow) else { return }
        for _ in 0..<1000 where !threadExited.load(ordering: .acquiring) {
            usleep(1000)
        }
    }

    private var isFinished: Bool {
        (!threadStarted.load(ordering: .relaxed) || threadExited.load(ordering: .acquiring))
            && unfinishedSockets.load(ordering: .relaxed) == 0
    }

    private func threadDidExit() {
        threadExited.store(true, ordering: .releasing)
    }

    /// A socket's `didClose` has returned.
    func socketFinished() {
        unfinishedSockets.subtract(1, ordering: .relaxed)
    }
}

/// The state and work of the I/O thread; lives and dies on it.
private final class WebSocketIOThread {
    private let loop: WebSocketLoop
    private let settings: WebSocketLoop.Settings
    private var connections: [UInt64: WebSocketConnection] = [:]
    private var dirty: [WebSocketConnection] = []
    private var now = ContinuousClock.now
    private var stopping = false
    private var stopDeadline: ContinuousClock.Instant?
    private var stopNow = false
    private let tick: Duration
    private static let scratchSize = 64 << 10
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: WebSocketIOThread.scratchSize, alignment: 16)

    init(loop: WebSocketLoop) {
        self.loop = loop
        self.settings = loop.settings
        self.tick = max(.milliseconds(10), min(settings.pingInterval / 4, .milliseconds(250)))
    }

    deinit {
        scratch.deallocate()
    }

    func run() {
        var tokens = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        var nextTick = ContinuousClock.now + tick
        while true {
            let wait = max(Duration.zero, nextTick - ContinuousClock.now)
            let timeout = Int32(min(1000, (wait / .milliseconds(1)).rounded(.up)))
            let count = tokens.withUnsafeMutableBufferPointer { tokenBuffer in
                events.withUnsafeMutableBufferPointer { eventBuffer in
                    assent_ws_epoll_wait(loop.epollFD, tokenBuffer.baseAddress!, eventBuffer.baseAddress!, 256, timeout)
                }
            }
            now = ContinuousClock.now
            if count < 0 {
                loop.logger.error("websocket event loop failed", ["errno": .int(Int(-count))])
                abortAll(code: WebSocketCloseCode.internalError)
                break
            }
            for index in 0..<Int(count) {
                let token = tokens[index]
                if token == 0 {
                    assent_ws_wake_drain(loop.wakeFD)
                    processCommands()
                    continue
                }
                guard let connection = connections[token] else { continue }
                let mask = events[index]
                if mask & UInt32(ASSENT_WS_EVENT_OUT) != 0 { flush(connection) }
                if mask & UInt32(ASSENT_WS_EVENT_IN | ASSENT_WS_EVENT_ERR | ASSENT_WS_EVENT_HUP) != 0,
                   connections[token] != nil {
                    readable(connection)
                }
            }
            flushDirty()
            if stopNow {
                abortAll(code: WebSocketCloseCode.goingAway)
                break
            }
            if now >= nextTick {
                checkTimers()
                nextTick = now + tick
            }
            if stopping && connections.isEmpty { break }
        }
        // Refuse further commands; sockets still waiting to be opened are closed unannounced.
        for case .open(_, let upgraded, _) in loop.takeCommands(final: true) {
            upgraded.close()
        }
    }

    // MARK: - Commands

    private func processCommands() {
        for command in loop.takeCommands() {
            switch command {
            case .open(let socket, let upgraded, let extra):
                open(socket, upgraded, extra: extra)
            case .send(let id, let frame):
                guard let connection = connections[id], connection.isOpen else { continue }
                queue(connection, frame)
            case .close(let id, let code, let reason):
                guard let connection = connections[id], connection.isOpen else { continue }
                serverClose(connection, code: code, reason: reason)
            case .shutdown:
                guard !stopping else { continue }
                stopping = true
                stopDeadline = now + settings.closeTimeout * 2 + .milliseconds(200)
                for connection in connections.values where connection.isOpen {
                    serverClose(connection, code: WebSocketCloseCode.goingAway, reason: "server shutting down")
                }
            case .stopNow:
                stopNow = true
            }
        }
    }

    private func open(_ socket: WebSocket, _ upgraded: UpgradedSocket, extra: [UInt8]) {
        guard !stopping, !stopNow else {
            upgraded.close()
            return
        }
        let result = assent_ws_epoll_set(loop.epollFD, Int32(ASSENT_WS_ADD), upgraded.fd, UInt32(ASSENT_WS_EVENT_IN), socket.id)
        guard result == 0 else {
            upgraded.close()
            loop.logger.error("websocket could not be watched", ["errno": .int(Int(result)), "requestId": .string(socket.request.requestID)])
            return
        }
        let connection = WebSocketConnection(upgraded, socket: socket, maxMessageBytes: settings.maxMessageBytes, now: now)
        connections[socket.id] = connection
        loop.openSockets.add(1, ordering: .relaxed)
        loop.unfinishedSockets.add(1, ordering: .relaxed)
        loop.metrics.webSocketsChanged(by: 1)
        if loop.logger.isEnabled(.debug) {
            loop.logger.debug("websocket opened", [
                "socketId": .int(Int(truncatingIfNeeded: socket.id)), "requestId": .string(socket.request.requestID),
                "route": .string(socket.route),
            ])
        }
        socket.mailbox.post(.open, socket: socket)
        if !extra.isEmpty {
            connection.lastHeard = now
            receive(connection, extra)
        }
    }

    // MARK: - Reading

    private func readable(_ connection: WebSocketConnection) {
        let count = recv(connection.fd, scratch.baseAddress, scratch.count, 0)
        if count == 0 {
            destroy(connection)
            return
        }
        if count < 0 {
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { return }
            destroy(connection)
            return
        }
        connection.lastHeard = now
        guard connection.isParsing else { return }  // closing: input is dropped
        let received = UnsafeRawBufferPointer(rebasing: scratch[0..<count])
        if connection.inbound.isEmpty {
            let used = parse(connection, received)
            if connection.isParsing, used < count {
                connection.inbound = Array(received[used...])
            }
        } else {
            connection.inbound.append(contentsOf: received)
            let bytes = connection.inbound
            let used = bytes.withUnsafeBytes { parse(connection, $0) }
            if !connection.isParsing || used == bytes.count {
                connection.inbound = []
            } else if used > 0 {
                connection.inbound.removeFirst(used)
            }
        }
    }

    private func receive(_ connection: WebSocketConnection, _ bytes: [UInt8]) {
        let used = bytes.withUnsafeBytes { parse(connection, $0) }
        if connection.isParsing, used < bytes.count {
            connection.inbound = Array(bytes[used...])
        }
    }

    /// Parses complete frames from `bytes` and acts on them; returns the bytes used.
    private func parse(_ connection: WebSocketConnection, _ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count, connection.isParsing {
            let (consumed, event) = connection.parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if let event { handle(connection, event) }
            if consumed == 0 { break }
            offset += consumed
        }
        return offset
    }

    private func handle(_ connection: WebSocketConnection, _ event: WebSocketFrameParser.Event) {
        switch event {
        case .text(let text):
            guard connection.isOpen else { return }  // after our close frame, data is dropped
            let socket = connection.socket
            if socket.mailbox.pendingBytes + WebSocketMailbox.cost(of: text) > settings.maxPendingBytes {
                fail(connection, code: WebSocketCloseCode.policyViolation, reason: "messages arrive faster than they are handled")
                return
            }
            socket.mailbox.post(.text(text), socket: socket)
        case .ping(let payload):
            guard connection.isOpen else { return }
            queue(connection, WebSocketFrame.encode(.pong, payload))
        case .pong:
            break
        case .close(let code, _):
            if connection.isOpen {
                // The client starts the closing handshake: echo its code, then close.
                let echo = code.map { WebSocketFrame.close(code: $0, reason: "") } ?? WebSocketFrame.encode(.close, [])
                report(connection, code ?? WebSocketCloseCode.noStatusReceived)
                connection.phase = .finishing(deadline: now + settings.closeTimeout)
                queue(connection, echo)
            } else {
                // The client answers our close frame.
                connection.phase = .finishing(deadline: now + settings.closeTimeout)
                markDirty(connection)
            }
        case .failure(let code, let reason):
            if loop.logger.isEnabled(.debug) {
                loop.logger.debug("websocket protocol error", [
                    "socketId": .int(Int(truncatingIfNeeded: connection.socket.id)), "code": .int(Int(code)), "reason": .string(reason),
                ])
            }
            fail(connection, code: code, reason: reason)
        }
    }

    // MARK: - Writing

    private func queue(_ connection: WebSocketConnection, _ frame: [UInt8]) {
        guard connection.queuedBytes + frame.count <= settings.maxQueuedBytes else {
            loop.logger.repeatedWarning("websocket dropped: the client does not read", [
                "socketId": .int(Int(truncatingIfNeeded: connection.socket.id)), "queuedBytes": .int(connection.queuedBytes),
            ])
            destroy(connection)
            return
        }
        if connection.outbound.isEmpty {
            connection.outbound = frame
        } else {
            connection.outbound.append(contentsOf: frame)
        }
        markDirty(connection)
    }

    private func markDirty(_ connection: WebSocketConnection) {
        guard !connection.dirty else { return }
        connection.dirty = true
        dirty.append(connection)
    }

    private func flushDirty() {
        while !dirty.isEmpty {
            let batch = dirty
            dirty = []
            for connection in batch {
                connection.dirty = false
                if !connection.destroyed { flush(connection) }
            }
        }
    }

    /// Writes what the socket takes; watches EPOLLOUT while something is left.
    private func flush(_ connection: WebSocketConnection) {
        while connection.outboundOffset < connection.outbound.count {
            let written = connection.outbound.withUnsafeBytes { bytes in
                send(connection.fd, bytes.baseAddress! + connection.outboundOffset, bytes.count - connection.outboundOffset,
                     Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written > 0 {
                connection.outboundOffset += written
                continue
            }
            let error = errno
            if written < 0, error == EINTR { continue }
            if written < 0, error == EAGAIN || error == EWOULDBLOCK {
                if connection.outboundOffset > 64 << 10 {
                    connection.outbound.removeFirst(connection.outboundOffset)
                    connection.outboundOffset = 0
                }
                watchWrites(connection, true)
                return
            }
            destroy(connection)
            return
        }
        connection.outbound = []
        connection.outboundOffset = 0
        watchWrites(connection, false)
        if case .finishing = connection.phase {
            shutdown(connection.fd, Int32(SHUT_WR))
            connection.phase = .lingering(deadline: now + settings.closeTimeout)
        }
    }

    private func watchWrites(_ connection: WebSocketConnection, _ on: Bool) {
        guard connection.watchingWrites != on else { return }
        connection.watchingWrites = on
        let events = UInt32(ASSENT_WS_EVENT_IN) | (on ? UInt32(ASSENT_WS_EVENT_OUT) : 0)
        _ = assent_ws_epoll_set(loop.epollFD, Int32(ASSENT_WS_MODIFY), connection.fd, events, connection.socket.id)
    }

    // MARK: - Closing

    /// The server starts the closing handshake (application close or shutdown).
    private func serverClose(_ connection: WebSocketConnection, code: UInt16, reason: String) {
        report(connection, code)
        connection.phase = .closeSent(deadline: now + settings.closeTimeout)
        queue(connection, WebSocketFrame.close(code: code, reason: reason))
    }

    /// Fails the connection (RFC 6455 §7.1.7): close frame, then close without waiting for an answer.
    private func fail(_ connection: WebSocketConnection, code: UInt16, reason: String) {
        guard connection.isOpen else {
            connection.phase = .finishing(deadline: now + settings.closeTimeout)
            markDirty(connection)
            return
        }
        report(connection, code)
        connection.phase = .finishing(deadline: now + settings.closeTimeout)
        queue(connection, WebSocketFrame.close(code: code, reason: reason))
    }

    /// Tells the handler (once) that the socket is closed with `code`.
    private func report(_ connection: WebSocketConnection, _ code: UInt16) {
        guard connection.reportedCode == nil else { return }
        connection.reportedCode = code
        connection.socket.markClosed()
        connection.socket.mailbox.post(.close(code), socket: connection.socket)
    }

    /// Closes the descriptor and forgets the socket; reports 1006 if nothing was reported yet.
    private func destroy(_ connection: WebSocketConnection) {
        let id = connection.socket.id
        guard connections.removeValue(forKey: id) != nil else { return }
        connection.destroyed = true
        _ = assent_ws_epoll_set(loop.epollFD, Int32(ASSENT_WS_DELETE), connection.fd, 0, id)
        connection.upgraded.close()
        connection.outbound = []
        connection.inbound = []
        loop.openSockets.subtract(1, ordering: .relaxed)
        loop.metrics.webSocketsChanged(by: -1)
        report(connection, WebSocketCloseCode.abnormalClosure)  // after the gauge: a handler sees it current
        if loop.logger.isEnabled(.info) {
            let lifetime = now - connection.openedAt
            loop.logger.info("websocket closed", [
                "socketId": .int(Int(truncatingIfNeeded: id)),
                "requestId": .string(connection.socket.request.requestID),
                "route": .string(connection.socket.route),
                "remote": .string(connection.socket.request.remoteAddress),
                "code": .int(Int(connection.reportedCode ?? WebSocketCloseCode.abnormalClosure)),
                "durationMs": .int(Int(lifetime / .milliseconds(1))),
            ])
        }
    }

    /// Closes every socket at once, writing a close frame where the socket takes it.
    private func abortAll(code: UInt16) {
        for connection in Array(connections.values) {
            if connection.isOpen {
                let frame = WebSocketFrame.close(code: code, reason: "server shutting down")
                _ = frame.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                report(connection, code)
            }
            destroy(connection)
        }
    }

    // MARK: - Timers

    private func checkTimers() {
        if stopping, let stopDeadline, now >= stopDeadline {
            for connection in Array(connections.values) { destroy(connection) }
            return
        }
        for connection in Array(connections.values) {
            if let deadline = connection.phase.deadline {
                if now >= deadline { destroy(connection) }
                continue
            }
            switch WebSocketKeepalive.action(now: now, lastHeard: connection.lastHeard, lastPing: connection.lastPing, interval: settings.pingInterval) {
            case .none:
                break
            case .ping:
                connection.lastPing = now
                queue(connection, WebSocketFrame.encode(.ping, []))
            case .drop:
                if loop.logger.isEnabled(.debug) {
                    loop.logger.debug("websocket dropped: silent past the keep-alive", ["socketId": .int(Int(truncatingIfNeeded: connection.socket.id))])
                }
                destroy(connection)
            }
        }
        flushDirty()
    }
}
