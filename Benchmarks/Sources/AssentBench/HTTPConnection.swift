import Glibc

/// A minimal HTTP/1.1 keep-alive client over one TCP socket, used by one thread.
///
/// Requests carry `Content-Length` bodies; responses must be framed by
/// `Content-Length` (or by closing the connection after `Connection: close`).
/// A chunked response is a protocol error, since no scenario needs one.
/// Any failure closes the socket; the next ``send(_:)`` reconnects.
final class HTTPConnection {
    let endpoint: Endpoint
    private let timeout: timeval
    private var socket: Int32 = -1
    private var input: [UInt8]
    private var inputStart = 0
    private var inputEnd = 0
    private var output: [UInt8] = []
    private let fixedHeaders: [UInt8]

    /// How many TCP connections this client has opened.
    private(set) var connectCount = 0

    private static let maxHeaderBytes = 64 * 1024
    private static let maxBodyBytes = 16 * 1024 * 1024
    /// Pause after a failed connect so a dead server does not turn into a busy loop.
    private static let reconnectPauseMicroseconds: UInt32 = 50_000

    init(endpoint: Endpoint, timeoutSeconds: Double) {
        self.endpoint = endpoint
        let whole = Int(timeoutSeconds.rounded(.down))
        timeout = timeval(tv_sec: whole, tv_usec: Int((timeoutSeconds - Double(whole)) * 1_000_000))
        input = [UInt8](repeating: 0, count: 16 * 1024)
        output.reserveCapacity(1024)
        fixedHeaders = Array("Host: \(endpoint.hostHeader)\r\nUser-Agent: assent-bench\r\n".utf8)
    }

    deinit { close() }

    var isConnected: Bool { socket >= 0 }

    /// Opens a new TCP connection (closing any current one).
    func connect() throws(BenchError) {
        close()
        let fd = Glibc.socket(endpoint.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .io("socket", errno: errno) }
        var one: Int32 = 1
        var limit = timeout
        let options = [
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)),
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)),
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)),
        ]
        if options.contains(where: { $0 != 0 }) {
            let number = errno
            Glibc.close(fd)
            throw .io("setsockopt", errno: number)
        }
        let result = endpoint.address.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard result == 0 else {
            let number = errno
            Glibc.close(fd)
            usleep(Self.reconnectPauseMicroseconds)
            let message = String(cString: strerror(number))
            throw BenchError(
                .unreachable, label: "connect: \(message)",
                reason: "cannot connect to \(endpoint.hostHeader): \(message)")
        }
        socket = fd
        connectCount += 1
        inputStart = 0
        inputEnd = 0
    }

    func close() {
        if socket >= 0 {
            Glibc.close(socket)
            socket = -1
        }
    }

    /// Sends `request` and reads its response, connecting first if needed.
    func send(_ request: HTTPRequest) throws(BenchError) -> HTTPResponse {
        if socket < 0 { try connect() }
        serialize(request)
        do {
            try writeOutput()
            let (response, keepAlive) = try readResponse()
            if !keepAlive { close() }
            return response
        } catch {
            close()
            throw error
        }
    }

    // MARK: - Writing

    private func serialize(_ request: HTTPRequest) {
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: request.method.utf8)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: endpoint.basePath.utf8)
        output.append(contentsOf: request.path.utf8)
        output.append(contentsOf: " HTTP/1.1\r\n".utf8)
        output.append(contentsOf: fixedHeaders)
        if let authorization = request.authorization {
            output.append(contentsOf: "Authorization: ".utf8)
            output.append(contentsOf: authorization.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        for header in request.headers {
            output.append(contentsOf: header.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: header.value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        if let body = request.body {
            output.append(contentsOf: "Content-Type: application/json\r\nContent-Length: ".utf8)
            output.append(contentsOf: String(body.count).utf8)
            output.append(contentsOf: "\r\n\r\n".utf8)
            output.append(contentsOf: body)
        } else if request.method != "GET" && request.method != "HEAD" {
            output.append(contentsOf: "Content-Length: 0\r\n\r\n".utf8)
        } else {
            output.append(contentsOf: "\r\n".utf8)
        }
    }

    private func writeOutput() throws(BenchError) {
        var sent = 0
        while sent < output.count {
            let result = output.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result > 0 {
                sent += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                throw .io("send", errno: result < 0 ? errno : EPIPE)
            }
        }
    }

    // MARK: - Reading

    private func readResponse() throws(BenchError) -> (HTTPResponse, keepAlive: Bool) {
        // Headers: read until CRLF CRLF.
        var searchFrom = inputStart
        var headerEnd = -1
        while true {
            if let found = findHeaderEnd(from: searchFrom) {
                headerEnd = found
                break
            }
            searchFrom = max(inputStart, inputEnd - 3)
            if inputEnd - inputStart >= Self.maxHeaderBytes {
                throw protocolError("response headers exceed \(Self.maxHeaderBytes / 1024) KiB")
            }
            let shift = makeRoom()
            searchFrom -= shift
            try fill()
        }
        let head = try parseHead(from: inputStart, to: headerEnd - 4)

        // Body.
        var bodyStart = headerEnd
        let bodyLength: Int
        var keepAlive = head.keepAlive
        if let length = head.contentLength {
            guard length <= Self.maxBodyBytes else {
                throw protocolError("response body of \(length) bytes exceeds \(Self.maxBodyBytes / 1024 / 1024) MiB")
            }
            let missing = length - (inputEnd - bodyStart)
            if missing > 0 { bodyStart -= makeRoom(atLeast: missing) }
            while inputEnd - bodyStart < length { try fill() }
            bodyLength = length
        } else if head.status == 204 || head.status == 304 || (100..<200).contains(head.status) {
            bodyLength = 0
        } else if !keepAlive {
            // Framed by the server closing the connection.
            while true {
                bodyStart -= makeRoom(atLeast: 4096)
                do {
                    try fill()
                } catch where error.code == .closedByServer {
                    break
                }
                if inputEnd - bodyStart > Self.maxBodyBytes { throw protocolError("unframed response body too large") }
            }
            bodyLength = inputEnd - bodyStart
            keepAlive = false
        } else {
            throw protocolError("response has neither Content-Length nor Connection: close")
        }
        let body = Array(input[bodyStart..<(bodyStart + bodyLength)])
        inputStart = bodyStart + bodyLength
        if inputStart == inputEnd {
            inputStart = 0
            inputEnd = 0
        }
        return (HTTPResponse(status: head.status, body: body), keepAlive)
    }

    /// Moves unread bytes to the front and grows the buffer so that at least
    /// `atLeast` bytes fit after `inputEnd`. Returns how far the bytes moved left.
    @discardableResult
    private func makeRoom(atLeast needed: Int = 1) -> Int {
        if input.count - inputEnd >= needed { return 0 }
        let shift = inputStart
        if shift > 0 {
            let unread = inputEnd - inputStart
            input.withUnsafeMutableBytes { raw in
                _ = memmove(raw.baseAddress!, raw.baseAddress! + shift, unread)
            }
            inputStart = 0
            inputEnd = unread
        }
        if input.count - inputEnd < needed {
            var capacity = input.count
            while capacity - inputEnd < needed { capacity *= 2 }
            input.append(contentsOf: repeatElement(0, count: capacity - input.count))
        }
        return shift
    }

    /// One `recv` into the free tail of the buffer.
    private func fill() throws(BenchError) {
        precondition(inputEnd < input.count)
        while true {
            let result = input.withUnsafeMutableBytes { raw in
                recv(socket, raw.baseAddress! + inputEnd, raw.count - inputEnd, 0)
            }
            if result > 0 {
                inputEnd += result
                return
            }
            if result == 0 {
                let during = inputEnd > inputStart
                throw BenchError(
                    .closedByServer,
                    label: during ? "connection closed by server mid-response" : "connection closed by server",
                    reason: during ? "the server closed the connection in the middle of a response"
                        : "the server closed the connection instead of answering")
            }
            if errno == EINTR { continue }
            throw .io("recv", errno: errno)
        }
    }

    /// Index just after the first CRLF CRLF in the unread bytes, if complete.
    private func findHeaderEnd(from start: Int) -> Int? {
        var index = max(start, inputStart)
        while index + 3 < inputEnd {
            if input[index + 3] != 0x0A {
                index += 1
                continue
            }
            if input[index] == 0x0D && input[index + 1] == 0x0A && input[index + 2] == 0x0D {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    private struct Head {
        var status: Int
        var contentLength: Int?
        var keepAlive: Bool
    }

    private func parseHead(from start: Int, to end: Int) throws(BenchError) -> Head {
        // Status line: HTTP/1.x SP ddd ...
        guard end - start >= 12,
            input[start] == UInt8(ascii: "H"), input[start + 1] == UInt8(ascii: "T"),
            input[start + 2] == UInt8(ascii: "T"), input[start + 3] == UInt8(ascii: "P"),
            input[start + 4] == UInt8(ascii: "/"), input[start + 5] == UInt8(ascii: "1"),
            input[start + 6] == UInt8(ascii: "."), input[start + 8] == UInt8(ascii: " ")
        else {
            throw protocolError("malformed status line: \(String(decoding: input[start..<min(end, start + 40)], as: UTF8.self))")
        }
        var status = 0
        for offset in 9..<12 {
            let digit = input[start + offset]
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else {
                throw protocolError("malformed status code")
            }
            status = status * 10 + Int(digit - UInt8(ascii: "0"))
        }
        var head = Head(status: status, contentLength: nil, keepAlive: input[start + 7] != UInt8(ascii: "0"))

        // Header lines.
        var lineStart = start
        while lineStart < end, input[lineStart] != 0x0A { lineStart += 1 }
        lineStart += 1
        while lineStart < end {
            var lineEnd = lineStart
            while lineEnd < end, input[lineEnd] != 0x0D { lineEnd += 1 }
            var colon = lineStart
            while colon < lineEnd, input[colon] != UInt8(ascii: ":") { colon += 1 }
            if colon < lineEnd {
                var valueStart = colon + 1
                while valueStart < lineEnd, input[valueStart] == 0x20 || input[valueStart] == 0x09 { valueStart += 1 }
                var valueEnd = lineEnd
                while valueEnd > valueStart, input[valueEnd - 1] == 0x20 || input[valueEnd - 1] == 0x09 { valueEnd -= 1 }
                try apply(name: lineStart..<colon, value: valueStart..<valueEnd, to: &head)
            }
            lineStart = lineEnd + 2
        }
        return head
    }

    private func apply(name: Range<Int>, value: Range<Int>, to head: inout Head) throws(BenchError) {
        if equalsLowercased(name, "content-length") {
            var length = 0
            guard !value.isEmpty else { throw protocolError("empty Content-Length") }
            for index in value {
                let digit = input[index]
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"), length < Self.maxBodyBytes * 10 else {
                    throw protocolError("invalid Content-Length")
                }
                length = length * 10 + Int(digit - UInt8(ascii: "0"))
            }
            head.contentLength = length
        } else if equalsLowercased(name, "transfer-encoding") {
            if containsLowercased(value, "chunked") {
                throw protocolError("chunked transfer encoding is not supported; the server must send Content-Length")
            }
        } else if equalsLowercased(name, "connection") {
            if containsLowercased(value, "close") { head.keepAlive = false }
            if containsLowercased(value, "keep-alive") { head.keepAlive = true }
        }
    }

    private func equalsLowercased(_ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            var index = 0
            for position in range {
                if input[position] | 0x20 != expected[index] && input[position] != expected[index] { return false }
                index += 1
            }
            return true
        }
    }

    private func containsLowercased(_ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return lowercase.withUTF8Buffer { expected in
            for start in range.lowerBound...(range.upperBound - count) {
                var matched = true
                for offset in 0..<count where input[start + offset] | 0x20 != expected[offset] && input[start + offset] != expected[offset] {
                    matched = false
                    break
                }
                if matched { return true }
            }
            return false
        }
    }

    private func protocolError(_ reason: String) -> BenchError {
        BenchError(.protocolViolation, label: "protocol: \(reason)", reason: reason)
    }
}
