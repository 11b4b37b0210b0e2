package import AssentServerCore
internal import CCurl
internal import CCurlShims
import Foundation
import AssentSync
import Synchronization

/// The one place Assent talks to libcurl: an HTTP client for push providers that keeps **one connection per host**
/// and multiplexes concurrent requests over it as HTTP/2 streams (TLS with ALPN; plain `http://` URLs use HTTP/1.1
/// with keep-alive). A single thread drives a curl multi handle (`CURLPIPE_MULTIPLEX`, `CURLOPT_PIPEWAIT`, at most
/// ``Options/maxConnectionsPerHost`` connections per host); callers `await` their answer. Every libcurl return
/// code is checked; no curl type leaves this file.
package final class HTTP2Client: Sendable {
    /// How the client connects.
    package struct Options: Sendable {
        /// Connections kept per host (1: every request to a host shares one multiplexed connection).
        package var maxConnectionsPerHost = 1
        /// A PEM file of extra trusted certificates (replaces the system store when set); nil trusts the system's.
        package var caFile: String?
        /// Seconds to wait for a TCP + TLS connection.
        var connectTimeout: Double = 5
        /// Most concurrent streams asked for on one HTTP/2 connection.
        var maxConcurrentStreams = 500
        /// For a client that carries tenant-supplied URLs: every address it is about to connect to must pass this
        /// policy (libcurl's `CURLOPT_OPENSOCKETFUNCTION`, before any packet is sent; a refusal is
        /// `address_refused`), no proxy is used (the proxy's address is not the destination's) and redirects are
        /// never followed. Nil for the operator's own providers.
        package var destinations: OutboundURLPolicy?

        /// The defaults.
        package init() {}
    }

    /// One request.
    struct Request: Sendable {
        /// Absolute `http(s)` URL.
        var url: String
        /// Method, `POST` by default.
        var method = "POST"
        /// Header fields in order (names as given; HTTP/2 lower-cases them on the wire).
        var headers: [(String, String)] = []
        /// The body.
        var body: [UInt8] = []
        /// Seconds for the whole exchange.
        var timeout: Double = 10
        /// The most of the answer's body kept; the rest is read and dropped.
        var maximumBodyBytes = HTTP2Client.maximumBodyBytes
    }

    /// What came back.
    struct Response: Sendable {
        /// HTTP status.
        var status: Int
        /// The body (at most the request's ``Request/maximumBodyBytes``).
        var body: [UInt8]
        /// Response header fields, names lower-cased (the last value wins).
        var headers: [String: String] = [:]
        /// 2 for HTTP/2, 1 for HTTP/1.x.
        var httpVersion: Int
    }

    /// A request that got no HTTP answer (refused, reset, timed out, TLS failure, client stopped).
    struct TransportError: Error, CustomStringConvertible, Sendable {
        /// A short stable reason: `connect_failed`, `address_refused` (``Options/destinations`` refused every
        /// address), `timeout`, `tls_failed`, `stopped` or `transport_failed`.
        var code: String
        /// libcurl's message (never contains request headers or bodies).
        var reason: String
        var description: String { "\(code): \(reason)" }
    }

    /// Bodies larger than this are cut (providers answer a few hundred bytes).
    static let maximumBodyBytes = 64 * 1024

    private let engine: Engine

    /// Starts the client's thread.
    package init(options: Options = Options(), name: String = "assent-http2") throws {
        _ = HTTP2Client.globalInit
        engine = try Engine(options: options)
        let engine = self.engine
        let thread = Thread { engine.run() }
        thread.name = name
        thread.start()
    }

    deinit {
        engine.stop()
    }

    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``TransportError`` when no HTTP answer came.
    func send(_ request: Request) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            engine.submit(Transfer(request: request, continuation: continuation))
        }
    }

    /// New connections opened so far (each TCP + TLS handshake counts once).
    package var connectionsOpened: Int { engine.connectionsOpened.load(ordering: .relaxed) }

    /// Fails every waiting and running request with `stopped` and ends the thread.
    package func stop() { engine.stop() }

    private static let globalInit: Void = {
        let code = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        precondition(code == CURLE_OK, "curl_global_init failed (\(code.rawValue))")
    }()

    /// One request on its way: the easy handle, its header list and the collected answer.
    fileprivate final class Transfer: @unchecked Sendable {
        let request: Request
        let continuation: CheckedContinuation<Response, any Error>
        /// The policy every address must pass, when the client has one.
        var destinations: OutboundURLPolicy?
        /// The last address ``destinations`` refused (read after the transfer ended, on the client's thread).
        var refusedAddress: IPAddress?
        var easy: UnsafeMutableRawPointer?
        var headers: UnsafeMutablePointer<curl_slist>?
        var body: [UInt8] = []
        var responseHeaders: [String: String] = [:]

        init(request: Request, continuation: CheckedContinuation<Response, any Error>) {
            self.request = request
            self.continuation = continuation
        }

        /// Frees the easy handle and header list (after it left the multi handle).
        func release() {
            if let easy { curl_easy_cleanup(easy) }
            if let headers { curl_slist_free_all(headers) }
            easy = nil
            headers = nil
        }
    }

    /// The multi handle and its thread. Mutable state that only the thread touches lives in `active`; what other
    /// threads hand in goes through `inbox` and `curl_multi_wakeup`.
    fileprivate final class Engine: @unchecked Sendable {
        let multi: UnsafeMutableRawPointer
        let options: Options
        let inbox = AssentLock<(transfers: [Transfer], stopping: Bool, stopped: Bool)>(([], false, false))
        let connectionsOpened = Atomic<Int>(0)
        /// Running transfers by easy handle; touched only on the client's thread.
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        let finished = DispatchSemaphore(value: 0)

        init(options: Options) throws {
            guard let multi = curl_multi_init() else {
                throw TransportError(code: "transport_failed", reason: "curl_multi_init failed")
            }
            self.multi = multi
            self.options = options
            for (option, value) in [
                (Int32(ASSENT_CURLMOPT_PIPELINING), Int(ASSENT_CURLPIPE_MULTIPLEX)),
                (Int32(ASSENT_CURLMOPT_MAX_HOST_CONNECTIONS), options.maxConnectionsPerHost),
                (Int32(ASSENT_CURLMOPT_MAX_CONCURRENT_STREAMS), options.maxConcurrentStreams),
            ] {
                let code = assent_curl_multi_setopt_long(multi, option, value)
                guard code == 0 else {
                    curl_multi_cleanup(multi)
                    throw TransportError(code: "transport_failed", reason: "curl_multi_setopt \(option) failed (\(code))")
                }
            }
        }

        func submit(_ transfer: Transfer) {
            // The wake-up happens under the lock, so it can never reach a multi handle that `stop` already freed
            // (which happens under the same lock, after `stopping` is set).
            let accepted = inbox.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.transfers.append(transfer)
                _ = curl_multi_wakeup(multi)
                return true
            }
            guard accepted else {
                transfer.continuation.resume(throwing: TransportError(code: "stopped", reason: "the client is stopped"))
                return
            }
        }

        func stop() {
            let first = inbox.withLock { state -> Bool in
                defer { state.stopping = true }
                if !state.stopping { _ = curl_multi_wakeup(multi) }
                return !state.stopping
            }
            guard first else { return }
            finished.wait()
            inbox.withLock { state in
                state.stopped = true
                curl_multi_cleanup(multi)
            }
        }

        /// The loop: add new transfers, let curl work, finish what is done, sleep until a socket or a wake-up.
        func run() {
            while true {
                let (incoming, stopping) = inbox.withLock { state -> ([Transfer], Bool) in
                    defer { state.transfers.removeAll() }
                    return (state.transfers, state.stopping)
                }
                if stopping {
                    let stopped = TransportError(code: "stopped", reason: "the client is stopped")
                    for transfer in incoming { transfer.continuation.resume(throwing: stopped) }
                    for (easy, transfer) in active {
                        _ = curl_multi_remove_handle(multi, easy)
                        transfer.release()
                        transfer.continuation.resume(throwing: stopped)
                    }
                    active.removeAll()
                    finished.signal()
                    return
                }
                for transfer in incoming { start(transfer) }
                var running: Int32 = 0
                let performed = curl_multi_perform(multi, &running)
                if performed != CURLM_OK {
                    failAll(TransportError(code: "transport_failed", reason: "curl_multi_perform failed (\(performed.rawValue))"))
                }
                var easy: UnsafeMutableRawPointer?
                var result: Int32 = 0
                while assent_curl_multi_next_done(multi, &easy, &result) == 1, let done = easy {
                    finish(done, result: result)
                }
                var ready: Int32 = 0
                _ = curl_multi_poll(multi, nil, 0, 1000, &ready)
            }
        }

        private func failAll(_ error: TransportError) {
            for (easy, transfer) in active {
                _ = curl_multi_remove_handle(multi, easy)
                transfer.release()
                transfer.continuation.resume(throwing: error)
            }
            active.removeAll()
        }

        /// Configures an easy handle for `transfer` and adds it; a failure answers the caller at once.
        private func start(_ transfer: Transfer) {
            do {
                try configure(transfer)
                guard let easy = transfer.easy else { throw TransportError(code: "transport_failed", reason: "no handle") }
                let added = curl_multi_add_handle(multi, easy)
                guard added == CURLM_OK else {
                    throw TransportError(code: "transport_failed", reason: "curl_multi_add_handle failed (\(added.rawValue))")
                }
                active[easy] = transfer
            } catch {
                transfer.release()
                transfer.continuation.resume(throwing: error)
            }
        }

        private func configure(_ transfer: Transfer) throws {
            guard let easy = curl_easy_init() else {
                throw TransportError(code: "transport_failed", reason: "curl_easy_init failed")
            }
            transfer.easy = easy
            let request = transfer.request
            func check(_ code: Int32, _ what: String) throws {
                guard code == 0 else {
                    throw TransportError(code: "transport_failed", reason: "\(what): \(String(cString: curl_easy_strerror(CURLcode(UInt32(code)))))")
                }
            }
            try check(assent_curl_easy_setopt_string(easy, Int32(ASSENT_CURLOPT_URL), request.url), "URL")
            try check(assent_curl_easy_setopt_string(easy, Int32(ASSENT_CURLOPT_PROTOCOLS_STR), "http,https"), "protocols")
            try check(assent_curl_easy_setopt_long(easy, Int32(ASSENT_CURLOPT_NOSIGNAL), 1), "nosignal")
            try check(assent_curl_easy_setopt_long(easy, Int32(ASSENT_CURLOPT_FOLLOWLOCATION), 0), "follow")
            if let destinations = options.destinations {
                transfer.destinations = destinations
                // An empty proxy turns off the environment's http_proxy/https_proxy/all_proxy for this request.
                try check(assent_curl_easy_setopt_string(easy, Int32(ASSENT_CURLOPT_PROXY), ""), "proxy")
                try check(
                    assent_curl_easy_set_opensocket_function(easy, openSocket, Unmanaged.passUnretained(transfer).toOpaque()),
                    "open socket function")
            }
            try check(
                assent_curl_easy_setopt_long(easy, Int32(ASSENT_CURLOPT_HTTP_VERSION), Int(ASSENT_CURL_HTTP_VERSION_2TLS)),
                "HTTP version")
            try check(assent_curl_easy_setopt_long(easy, Int32(ASSENT_CURLOPT_PIPEWAIT), 1), "pipewait")
            try check(
                assent_curl_easy_setopt_long(easy, Int32(ASSENT_CURLOPT_TIMEOUT_MS), Int(request.timeout * 1000)), "timeout")
            try check(
                assent_curl_easy_setopt_long(
                    easy, Int32(ASSENT_CURLOPT_CONNECTTIMEOUT_MS), Int(min(options.connectTimeout, request.timeout) * 1000)),
                "connect timeout")
            try check(assent_curl_easy_setopt_string(easy, Int32(ASSENT_CURLOPT_USERAGENT), "assentd"), "user agent")
            if let caFile = options.caFile {
                try check(assent_curl_easy_setopt_string(easy, Int32(ASSENT_CURLOPT_CAINFO), caFile), "CA file")
            }
            try check(assent_curl_easy_setopt_string(easy, Int32(ASSENT_CURLOPT_CUSTOMREQUEST), request.method), "method")
            var list: UnsafeMutablePointer<curl_slist>?
            for (name, value) in request.headers + [("Expect", "")] {
                guard let appended = curl_slist_append(list, "\(name): \(value)") else {
                    if let list { curl_slist_free_all(list) }
                    throw TransportError(code: "transport_failed", reason: "curl_slist_append failed")
                }
                list = appended
            }
            transfer.headers = list
            try check(assent_curl_easy_setopt_pointer(easy, Int32(ASSENT_CURLOPT_HTTPHEADER), UnsafeMutableRawPointer(list)), "headers")
            if request.method != "GET" {
                // A terminating zero keeps the pointer valid for an empty body; libcurl copies `count` bytes.
                let bytes = request.body.map { CChar(bitPattern: $0) } + [0]
                let code = bytes.withUnsafeBufferPointer { assent_curl_easy_set_body(easy, $0.baseAddress!, request.body.count) }
                try check(code, "body")
            }
            try check(assent_curl_easy_set_write_function(easy, collectBody), "write function")
            try check(assent_curl_easy_set_header_function(easy, collectHeader), "header function")
            try check(
                assent_curl_easy_setopt_pointer(
                    easy, Int32(ASSENT_CURLOPT_HEADERDATA), Unmanaged.passUnretained(transfer).toOpaque()),
                "header data")
            try check(
                assent_curl_easy_setopt_pointer(
                    easy, Int32(ASSENT_CURLOPT_WRITEDATA), Unmanaged.passUnretained(transfer).toOpaque()),
                "write data")
        }

        private func finish(_ easy: UnsafeMutableRawPointer, result: Int32) {
            guard let transfer = active.removeValue(forKey: easy) else { return }
            _ = curl_multi_remove_handle(multi, easy)
            var connects = 0
            if assent_curl_easy_getinfo_long(easy, Int32(ASSENT_CURLINFO_NUM_CONNECTS), &connects) == 0 {
                connectionsOpened.add(connects, ordering: .relaxed)
            }
            if result != 0 {
                let code = CURLcode(UInt32(result))
                var message = String(cString: curl_easy_strerror(code))
                var kind: String = switch code {
                case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: "connect_failed"
                case CURLE_OPERATION_TIMEDOUT: "timeout"
                case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE: "tls_failed"
                default: "transport_failed"
                }
                if code == CURLE_COULDNT_CONNECT, let refused = transfer.refusedAddress {
                    kind = "address_refused"
                    message = "\(refused) is not a globally reachable address (assentd --allow-private-urls permits it)"
                }
                transfer.release()
                transfer.continuation.resume(throwing: TransportError(code: kind, reason: message))
                return
            }
            var status = 0
            var version = 0
            let statusOK = assent_curl_easy_getinfo_long(easy, Int32(ASSENT_CURLINFO_RESPONSE_CODE), &status) == 0
            _ = assent_curl_easy_getinfo_long(easy, Int32(ASSENT_CURLINFO_HTTP_VERSION), &version)
            let body = transfer.body
            let headers = transfer.responseHeaders
            transfer.release()
            guard statusOK, status > 0 else {
                transfer.continuation.resume(throwing: TransportError(code: "transport_failed", reason: "no HTTP status"))
                return
            }
            transfer.continuation.resume(
                returning: Response(
                    status: status, body: body, headers: headers,
                    httpVersion: version == Int(CURL_HTTP_VERSION_2_0) ? 2 : 1))
        }
    }
}

/// CURLOPT_OPENSOCKETFUNCTION of a client with ``HTTP2Client/Options/destinations``: opens the socket only for an
/// address the policy allows; for any other it answers `CURL_SOCKET_BAD`, so libcurl sends nothing and tries the
/// next address, failing the transfer when none is left.
private func openSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address else { return curl_socket_t(ASSENT_CURL_SOCKET_BAD) }
    let transfer = Unmanaged<HTTP2Client.Transfer>.fromOpaque(context).takeUnretainedValue()
    var bytes = [UInt8](repeating: 0, count: 16)
    let length = Int(assent_curl_sockaddr_ip(address, &bytes))
    guard let ip = IPAddress(bytes: bytes.prefix(length)) else { return curl_socket_t(ASSENT_CURL_SOCKET_BAD) }
    guard transfer.destinations?.allowsConnection(to: ip) ?? true else {
        transfer.refusedAddress = ip
        return curl_socket_t(ASSENT_CURL_SOCKET_BAD)
    }
    return assent_curl_open_socket(address)
}

/// CURLOPT_HEADERFUNCTION: keeps `name: value` lines of the final response (a status line starts over), at most 64.
private func collectHeader(
    _ data: UnsafeMutablePointer<CChar>, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let context, length < 8192 else { return length }
    let transfer = Unmanaged<HTTP2Client.Transfer>.fromOpaque(context).takeUnretainedValue()
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }.trimmingCharacters(in: .whitespacesAndNewlines)
    if line.hasPrefix("HTTP/") {
        transfer.responseHeaders = [:]
    } else if let colon = line.firstIndex(of: ":"), transfer.responseHeaders.count < 64 {
        let name = line[..<colon].lowercased()
        transfer.responseHeaders[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return length
}

/// CURLOPT_WRITEFUNCTION: appends to the transfer's body up to the cap (more is read and dropped).
private func collectBody(
    _ data: UnsafeMutablePointer<CChar>, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let context else { return length }
    let transfer = Unmanaged<HTTP2Client.Transfer>.fromOpaque(context).takeUnretainedValue()
    let room = transfer.request.maximumBodyBytes - transfer.body.count
    if room > 0 {
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(room, length)))
        }
    }
    return length
}
