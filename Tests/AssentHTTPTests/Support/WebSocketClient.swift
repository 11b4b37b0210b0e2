import Foundation
#if canImport(Glibc)
import Glibc
#endif
import AssentSync
@testable import AssentHTTP

/// One frame as the client received it.
struct ReceivedFrame: Sendable, Equatable {
    var fin: Bool
    var opcode: UInt8
    var masked: Bool
    var payload: [UInt8]

    var text: String { String(decoding: payload, as: UTF8.self) }
    /// The code of a close frame, or nil.
    var closeCode: UInt16? { opcode == 0x8 && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil }
    var closeReason: String { payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : "" }
}

/// A blocking WebSocket client on a raw socket, for exact bytes on the wire.
/// Use it from ``onThread(_:)``.
final class WebSocketClient: @unchecked Sendable {
    static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    let raw: RawConnection
    private var buffer: [UInt8] = []
    /// The status line and headers of the handshake answer.
    private(set) var status = 0
    private(set) var headers: [(String, String)] = []
    private(set) var responseBody: [UInt8] = []

    /// Connects and sends an upgrade request; read the answer with ``readHandshake()``.
    init(port: Int, timeoutSeconds: Int = 30) throws {
        raw = try RawConnection(port: port, timeoutSeconds: timeoutSeconds)
    }

    /// The upgrade request's bytes.
    static func upgradeRequest(
        path: String = "/ws",
        key: String = sampleKey,
        protocols: String? = nil,
        headers extra: [String] = [],
        omit: Set<String> = []
    ) -> String {
        var lines = ["GET \(path) HTTP/1.1", "Host: test"]
        if !omit.contains("Upgrade") { lines.append("Upgrade: websocket") }
        if !omit.contains("Connection") { lines.append("Connection: keep-alive, Upgrade") }
        if !omit.contains("Sec-WebSocket-Version") { lines.append("Sec-WebSocket-Version: 13") }
        if !omit.contains("Sec-WebSocket-Key") { lines.append("Sec-WebSocket-Key: \(key)") }
        if let protocols { lines.append("Sec-WebSocket-Protocol: \(protocols)") }
        lines += extra
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// Connects, sends the upgrade request (and `after` in the same write) and reads the answer's head.
    static func connect(
        port: Int,
        path: String = "/ws",
        protocols: String? = nil,
        headers: [String] = [],
        after: [UInt8] = []
    ) throws -> WebSocketClient {
        let client = try WebSocketClient(port: port)
        try client.raw.send(Array(upgradeRequest(path: path, protocols: protocols, headers: headers).utf8) + after)
        try client.readHandshake()
        return client
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Reads the answer's status line and headers (and a Content-Length body, for a refusal).
    func readHandshake() throws {
        let separator: [UInt8] = [13, 10, 13, 10]
        while buffer.firstRange(of: separator) == nil {
            guard try fill() else { throw RawHTTPError(description: "closed before the handshake answer") }
        }
        let end = buffer.firstRange(of: separator)!.lowerBound
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        status = Int(statusLine[1]) ?? 0
        headers = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        if status != 101, let length = header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { throw RawHTTPError(description: "closed inside the refusal body") }
            }
            responseBody = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
    }

    var responseJSON: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(responseBody))) as? [String: Any]
    }

    /// Builds a client frame.
    static func frame(
        opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0,
        lengthForm: Int? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        let count = payload.count
        switch lengthForm ?? (count < 126 ? 7 : count <= 0xFFFF ? 16 : 64) {
        case 7:
            bytes.append(maskBit | UInt8(count))
        case 16:
            bytes.append(maskBit | 126)
            bytes += [UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(UInt64(count) >> UInt64(shift) & 0xFF)) }
        }
        if masked {
            let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
            bytes += key
            bytes += payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
        } else {
            bytes += payload
        }
        return bytes
    }

    func send(_ bytes: [UInt8]) throws { try raw.send(bytes) }

    func sendText(_ text: String) throws { try send(Self.frame(opcode: 0x1, Array(text.utf8))) }

    func sendClose(code: UInt16?, reason: String = "") throws {
        var payload: [UInt8] = []
        if let code { payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8) }
        try send(Self.frame(opcode: 0x8, payload))
    }

    /// Reads one frame; nil when the server closed the connection.
    func readFrame() throws -> ReceivedFrame? {
        while true {
            if let frame = parse() { return frame }
            guard try fill() else { return nil }
        }
    }

    /// Reads frames until one that is not a ping (answering nothing); nil at EOF.
    func readSkippingPings() throws -> ReceivedFrame? {
        while let frame = try readFrame() {
            if frame.opcode != 0x9 { return frame }
        }
        return nil
    }

    /// Reads the next text message (skipping pings) and returns it.
    func readText() throws -> String {
        guard let frame = try readSkippingPings() else { throw RawHTTPError(description: "closed while waiting for text") }
        guard frame.opcode == 0x1 else { throw RawHTTPError(description: "expected text, got opcode \(frame.opcode)") }
        return frame.text
    }

    /// Whether the server closes the connection (EOF) with nothing but pings before.
    func readsEOF() throws -> Bool {
        while let frame = try readFrame() {
            if frame.opcode != 0x9 { return false }
        }
        return true
    }

    private func parse() -> ReceivedFrame? {
        guard buffer.count >= 2 else { return nil }
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        if masked { offset += 4 }
        guard buffer.count >= offset + length else { return nil }
        let frame = ReceivedFrame(fin: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0F, masked: masked, payload: Array(buffer[offset..<offset + length]))
        buffer.removeFirst(offset + length)
        return frame
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 || errno == ECONNRESET { return false }
        throw RawHTTPError(description: "recv: errno \(errno)")
    }
}

/// A handler that echoes text and records what happens, for the wire tests.
///
/// - accepts `authsignal-ws` when offered, and rejects with `401` when the
///   request has `X-Reject: yes`;
/// - echoes every text message; `close-me` makes it close with 4000 "done";
/// - records every callback, per socket, in order.
final class RecordingHandler: WebSocketHandler {
    enum Event: Equatable, Sendable {
        case open
        case text(String)
        case close(UInt16)
    }

    private struct State {
        var offered: [[String]] = []
        var events: [UInt64: [Event]] = [:]
        var sockets: [UInt64: WebSocket] = [:]
    }

    private let state = AssentLock(State())
    let echo: Bool
    let receiveDelay: Duration?

    init(echo: Bool = true, receiveDelay: Duration? = nil) {
        self.echo = echo
        self.receiveDelay = receiveDelay
    }

    func accept(_ request: HTTPRequest, offeredProtocols: [String]) async -> WebSocketAcceptance {
        state.withLock { $0.offered.append(offeredProtocols) }
        if request.headers["X-Reject"] == "yes" {
            return .reject(.error(401, code: "unauthorized", description: "No token."))
        }
        if request.headers["X-Bad-Protocol"] == "yes" { return .accept(subprotocol: "never-offered") }
        return .accept(subprotocol: offeredProtocols.contains("authsignal-ws") ? "authsignal-ws" : nil)
    }

    func didOpen(_ socket: WebSocket) async {
        state.withLock {
            $0.events[socket.id, default: []].append(.open)
            $0.sockets[socket.id] = socket
        }
    }

    func didReceive(text: String, from socket: WebSocket) async {
        if let receiveDelay { try? await Task.sleep(for: receiveDelay) }
        state.withLock { $0.events[socket.id, default: []].append(.text(text)) }
        if text == "close-me" {
            socket.close(code: 4000, reason: "done")
        } else if echo {
            socket.send(text: text)
        }
    }

    func didClose(_ socket: WebSocket, code: UInt16) async {
        state.withLock { $0.events[socket.id, default: []].append(.close(code)) }
    }

    var offered: [[String]] { state.withLock { $0.offered } }
    var events: [UInt64: [Event]] { state.withLock { $0.events } }
    var sockets: [WebSocket] { state.withLock { Array($0.sockets.values) } }

    /// Close events per socket.
    var closeCodes: [UInt64: [UInt16]] {
        events.mapValues { $0.compactMap { if case .close(let code) = $0 { code } else { nil } } }
    }

    /// Waits (bounded) until `predicate` holds.
    func wait(timeout: Duration = .seconds(10), _ predicate: (RecordingHandler) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(self) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(self)
    }
}

/// Raises the soft limit on open files to `wanted` (or the hard limit, if lower); returns the soft limit now.
@discardableResult
func raiseOpenFileLimit(to wanted: Int) -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur < rlim_t(wanted) {
        if limit.rlim_max < rlim_t(wanted) { limit.rlim_max = rlim_t(wanted) }  // root may raise the hard limit
        limit.rlim_cur = rlim_t(wanted)
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return Int(limit.rlim_cur)
}
