import AssentCrypto
import Glibc
import Synchronization
import Testing
@testable import assent_bench
import Foundation

/// A request as the fake server received it.
private struct Received: Sendable {
    var method: String
    var target: String
    var headers: [String: String]
    var body: String

    var path: String { String(target.split(separator: "?", maxSplits: 1)[0]) }
    var query: String? { target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) }
}

/// Every request the fake server saw, in order.
private final class RequestLog: Sendable {
    private let requests = Mutex<[Received]>([])

    func append(_ request: Received) { requests.withLock { $0.append(request) } }
    var all: [Received] { requests.withLock { $0 } }
}

/// A one-connection loopback server that answers each request with `respond`'s `(status, JSON body)`
/// and keeps every request it saw.
private final class FakeServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var thread: WorkerThread?
    let received = RequestLog()

    init(respond: @escaping @Sendable (Received) -> (Int, String)) throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(listening, raw, length)
                _ = getsockname(listening, raw, &length)
            }
        }
        listen(listening, 4)
        listener = listening
        port = UInt16(bigEndian: address.sin_port)
        let received = self.received
        thread = try WorkerThread {
            let connection = accept(listening, nil, nil)
            defer { close(connection) }
            var pending: [UInt8] = []
            while true {
                var request: Received?
                while request == nil {
                    if let (parsed, used) = FakeServer.parse(pending) {
                        request = parsed
                        pending.removeFirst(used)
                        break
                    }
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let count = recv(connection, &chunk, chunk.count, 0)
                    if count <= 0 { return }
                    pending += chunk[0..<count]
                }
                received.append(request!)
                let (status, body) = respond(request!)
                let reply = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                _ = reply.utf8CString.withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    private static func parse(_ bytes: [UInt8]) -> (Received, Int)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<end.lowerBound].split(separator: "\r\n").map(String.init)
        let requestLine = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let headBytes = text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound)
        guard bytes.count >= headBytes + length else { return nil }
        let body = String(decoding: bytes[headBytes..<headBytes + length], as: UTF8.self)
        return (Received(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body), headBytes + length)
    }

    func finish(_ client: HTTPConnection) {
        client.close()
        thread?.join()
        close(listener)
    }
}

/// Answers the push flow the way assentd does, handing out `challengeId` "c-1"; `pendingID` is what the device's
/// get returns.
private func assentLike(pendingID: String = "c-1") -> @Sendable (Received) -> (Int, String) {
    { request in
        switch (request.method, request.path) {
        case ("POST", let path) where path.hasSuffix("/actions/enrol"): (200, #"{"token":"enrol-token"}"#)
        case ("POST", let path) where path.hasSuffix("/actions/signIn"): (200, #"{"token":"track-token","idempotencyKey":"k"}"#)
        case ("POST", "/v1/client/user-authenticators/push"): (200, #"{"userAuthenticatorId":"ua-1","userId":"u"}"#)
        case ("POST", "/v1/client/challenge/push"): (200, #"{"challengeId":"c-1","deliveryResults":[]}"#)
        case ("GET", "/v1/client/user-authenticators/push/challenge"): (200, #"{"userAuthenticatorId":"ua-1","challengeId":"\#(pendingID)"}"#)
        case ("POST", "/v1/client/user-authenticators/push/challenge"):
            request.body.contains(#""approved":true"#) ? (200, #"{"isVerified":true}"#) : (200, #"{"isVerified":false}"#)
        case ("POST", "/v1/client/verify/push"): (200, #"{"isVerified":true,"isConsumed":true,"accessToken":"access-token"}"#)
        case ("POST", "/v1/validate"): (200, #"{"isValid":true,"verificationMethod":"PUSH"}"#)
        default: (404, #"{"errorCode":"not_found"}"#)
        }
    }
}

/// The string value of `key` in a flat JSON object (test bodies hold no escapes).
private func field(_ key: String, in json: String) -> String? {
    HTTPResponse(status: 200, body: Array(json.utf8)).jsonString(forKey: key)
}

@Suite struct PushFlowScenarioTests {
    private let settings = ScenarioSettings(
        connection: 7, secretAuthorization: "Basic c2s6", usersPerConnection: 1, tenantID: "tenant-1")

    private func run(_ server: FakeServer, flows: Int = 1) throws -> (FlowContext, Int) {
        let client = HTTPConnection(endpoint: try Endpoint.resolve("http://127.0.0.1:\(server.port)"), timeoutSeconds: 2)
        defer { server.finish(client) }
        var scenario = PushFlowScenario(settings: settings)
        try scenario.prepare(client)
        let flow = FlowContext(connection: client, stepCount: PushFlowScenario.steps.count)
        flow.isMeasuring = true
        var failures = 0
        for _ in 0..<flows {
            do { try scenario.runFlow(flow) } catch { failures += 1 }
        }
        return (flow, failures)
    }

    @Test func enrolsThenSendsEveryStepAsTheIOSSDKAndTheBrowserDo() throws {
        let server = try FakeServer(respond: assentLike())
        let (flow, failures) = try run(server)
        #expect(failures == 0)
        #expect(flow.tally.steps.map(\.count) == [1, 1, 1, 1, 1, 1])

        let requests = server.received.all
        #expect(requests.map { "\($0.method) \($0.path)" } == [
            "POST /v1/users/bench-push-7/actions/enrol",
            "POST /v1/client/user-authenticators/push",
            "POST /v1/users/bench-push-7/actions/signIn",
            "POST /v1/client/challenge/push",
            "GET /v1/client/user-authenticators/push/challenge",
            "POST /v1/client/user-authenticators/push/challenge",
            "POST /v1/client/verify/push",
            "POST /v1/validate",
        ])
        let (enrolTrack, enrol, _, start, get, approve, verify, validate) =
            (requests[0], requests[1], requests[2], requests[3], requests[4], requests[5], requests[6], requests[7])
        #expect(enrolTrack.body == #"{"scope":"add:authenticators"}"#)
        #expect(enrol.headers["authorization"] == "Bearer enrol-token")
        #expect(field("deviceName", in: enrol.body) == "bench" && field("devicePlatform", in: enrol.body) == "ios")
        #expect(start.headers["authorization"] == "Bearer track-token" && start.body == #"{"action":"signIn"}"#)
        #expect(verify.headers["authorization"] == "Bearer track-token" && verify.body == #"{"challengeId":"c-1"}"#)
        #expect(validate.headers["authorization"] == "Basic c2s6" && validate.body == #"{"token":"access-token"}"#)

        // Tenant Basic as iOS sends it: base64url without padding of "tenant-1:".
        let tenantBasic = "Basic " + Base64.encodeURL(Array("tenant-1:".utf8))
        #expect(get.headers["authorization"] == tenantBasic && approve.headers["authorization"] == tenantBasic)
        #expect(!tenantBasic.hasSuffix("="))

        // ?publicKey= is base64url (no padding) of the body's base64 SPKI text, and the key is a P-256 SPKI.
        let publicKey = try #require(field("publicKey", in: enrol.body))
        #expect(field("publicKey", in: approve.body) == publicKey)
        let query = try #require(get.query)
        #expect(query.hasPrefix("publicKey="))
        let encoded = String(query.dropFirst("publicKey=".count))
        #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        #expect(Base64.decodeURL(encoded).map { String(decoding: $0, as: UTF8.self) } == publicKey)
        let key = try P256.PublicKey(spkiDER: try #require(Base64.decode(publicKey)))

        // The approval: signed over the UTF-8 of the challenge id.
        #expect(field("challengeId", in: approve.body) == "c-1")
        #expect(HTTPResponse(status: 200, body: Array(approve.body.utf8)).jsonBool(forKey: "approved") == true)
        let signature = try #require(field("signature", in: approve.body).flatMap(Base64.decodeStrict))
        #expect(key.isValidSignature(signature, for: Array("c-1".utf8)))
    }

    @Test func aFlowWhoseGetReturnsAnotherChallengeFailsAtGetAndDeniesItsOwn() throws {
        let server = try FakeServer(respond: assentLike(pendingID: "c-old"))
        let (flow, failures) = try run(server)
        #expect(failures == 1)
        #expect(flow.tally.stepErrors == [0, 0, 1, 0, 0, 0])
        #expect(flow.tally.errorKinds.keys.sorted() == [#"2xx without the started "challengeId""#])
        let last = try #require(server.received.all.last)
        #expect(last.path == "/v1/client/user-authenticators/push/challenge" && last.method == "POST")
        #expect(field("challengeId", in: last.body) == "c-1")
        #expect(last.body.contains(#""approved":false"#))
    }

    @Test func needsATenantFromTheFlagOrTheEnvironment() throws {
        let base = ["--url", "http://127.0.0.1:1", "--scenario", "track,push-flow"]
        #expect(throws: BenchError.usage("")) {
            try BenchConfiguration.parse(base, environment: ["ASSENT_BENCH_SECRET": "sk"])
        }
        let fromEnvironment = try BenchConfiguration.parse(
            base, environment: ["ASSENT_BENCH_SECRET": "sk", "ASSENT_BENCH_TENANT": "t-env"])
        #expect(fromEnvironment.tenant == "t-env")
        let fromFlag = try BenchConfiguration.parse(
            base + ["--tenant=t-flag"], environment: ["ASSENT_BENCH_SECRET": "sk", "ASSENT_BENCH_TENANT": "t-env"])
        #expect(fromFlag.tenant == "t-flag")
        // Scenarios that do not act as a device need none.
        _ = try BenchConfiguration.parse(["--url", "http://127.0.0.1:1", "--scenario", "track"], environment: ["ASSENT_BENCH_SECRET": "sk"])
    }

    @Test func withSeededUsersEnrolsNothingAndSignsAsAUserOfItsOwnSlice() throws {
        let server = try FakeServer(respond: assentLike())
        let client = HTTPConnection(endpoint: try Endpoint.resolve("http://127.0.0.1:\(server.port)"), timeoutSeconds: 2)
        var seededSettings = settings
        (seededSettings.connection, seededSettings.connections, seededSettings.seededUsers) = (1, 2, 10)
        seededSettings.seed = "s"
        var scenario = PushFlowScenario(settings: seededSettings)
        try scenario.prepare(client)
        let flow = FlowContext(connection: client, stepCount: PushFlowScenario.steps.count)
        for _ in 0..<4 { try scenario.runFlow(flow) }
        server.finish(client)

        let requests = server.received.all
        #expect(requests.count == 4 * 6)  // no enrolment
        for start in stride(from: 0, to: requests.count, by: 6) {
            let track = requests[start], approve = requests[start + 3]
            let user = try #require(track.path.split(separator: "/").dropFirst(2).first.map(String.init))
            let index = try #require(Int(user.dropFirst("seed-user-".count)))
            #expect(user == SeededDevice.userID(index) && (5..<10).contains(index))
            let key = try SeededDevice.privateKey(seed: "s", index: index, credential: .push)
            #expect(field("publicKey", in: approve.body) == Base64.encode(key.publicKey.spkiDER))
            let signature = try #require(field("signature", in: approve.body).flatMap(Base64.decodeStrict))
            #expect(key.publicKey.isValidSignature(signature, for: Array("c-1".utf8)))
        }
    }

    @Test func seededSlicesAreDisjointAndCoverEveryUser() {
        for (users, connections) in [(10, 3), (1000, 32), (32, 32), (1_000_000, 7)] {
            let slices = (0..<connections).compactMap { connection in
                SeededUsers(ScenarioSettings(
                    connection: connection, secretAuthorization: "", usersPerConnection: 1, connections: connections,
                    seededUsers: users))?.slice
            }
            #expect(slices.first?.lowerBound == 0 && slices.last?.upperBound == users)
            #expect(zip(slices, slices.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(slices.allSatisfy { !$0.isEmpty })
        }
        #expect(SeededUsers(settings) == nil)
    }

    @Test func seededUsersComeFromTheFlagOrTheEnvironmentAndCoverEveryConnection() throws {
        let base = ["--url", "http://127.0.0.1:1", "--scenario", "push-flow", "--tenant", "t", "--concurrency", "1,32"]
        let environment = ["ASSENT_BENCH_SECRET": "sk"]
        #expect(try BenchConfiguration.parse(base, environment: environment).seededUsers == nil)
        let flagged = try BenchConfiguration.parse(base + ["--seeded-users", "1000", "--seed", "x"], environment: environment)
        #expect(flagged.seededUsers == 1000 && flagged.seed == "x")
        let fromEnvironment = try BenchConfiguration.parse(
            base, environment: environment.merging(["ASSENT_BENCH_SEEDED_USERS": "64", "ASSENT_BENCH_SEED": "y"]) { $1 })
        #expect(fromEnvironment.seededUsers == 64 && fromEnvironment.seed == "y")
        #expect(throws: BenchError.usage("")) {
            try BenchConfiguration.parse(base + ["--seeded-users", "31"], environment: environment)
        }
        #expect(throws: BenchError.usage("")) {
            try BenchConfiguration.parse(base + ["--seeded-users", "0"], environment: environment)
        }
    }

    @Test func readsJSONBooleans() {
        func body(_ json: String) -> HTTPResponse { HTTPResponse(status: 200, body: Array(json.utf8)) }
        #expect(body(#"{"isValid" : true}"#).jsonBool(forKey: "isValid") == true)
        #expect(body(#"{"isVerified":false,"isConsumed":true}"#).jsonBool(forKey: "isVerified") == false)
        #expect(body(#"{"isValid":"true"}"#).jsonBool(forKey: "isValid") == nil)
        #expect(body(#"{"isValid":null}"#).jsonBool(forKey: "isValid") == nil)
        #expect(body(#"{"other":1}"#).jsonBool(forKey: "isValid") == nil)
    }
}
