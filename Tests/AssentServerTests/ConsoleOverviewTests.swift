import AssentCrypto
@testable import AssentServer
import AssentServerCore
import AssentTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stops URLSession from following a redirect, so a test sees the `303` and its `Set-Cookie`.
private final class OverviewNoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// `GET /admin/api/overview` on a real server: only with a console session, never cached, and counting what this
/// instance did at once — totals from the counters, challenges in the minute they happened.
@Suite struct ConsoleOverviewTests {
    struct Reply {
        let status: Int
        let headers: [String: String]
        let json: [String: Any]
    }

    static func signIn(_ server: LiveServer) async throws -> String {
        var request = URLRequest(url: URL(string: server.baseURL + "/admin/sign-in")!)
        request.httpMethod = "POST"
        request.setValue(server.baseURL, forHTTPHeaderField: "Origin")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let secret = server.tenant.secretKey.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        request.httpBody = Data("credential=\(secret)".utf8)
        let session = URLSession(configuration: .ephemeral, delegate: OverviewNoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 303)
        let header = try #require(http.value(forHTTPHeaderField: "Set-Cookie"))
        let pair = try #require(header.split(separator: ";").first)
        #expect(pair.hasPrefix("assent_console="))
        return String(pair)
    }

    static func get(_ server: LiveServer, _ path: String, cookie: String?) async throws -> (Reply, String) {
        var request = URLRequest(url: URL(string: server.baseURL + path)!)
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (Reply(status: http.statusCode, headers: headers, json: json), String(decoding: data, as: UTF8.self))
    }

    static func overview(_ server: LiveServer, cookie: String) async throws -> [String: Any] {
        let (reply, _) = try await get(server, "/admin/api/overview", cookie: cookie)
        #expect(reply.status == 200)
        #expect(reply.headers["cache-control"] == "no-store")
        #expect(reply.headers["content-type"] == "application/json")
        return reply.json
    }

    static func minutes(_ json: [String: Any]) -> [[String: Int]] {
        (json["minutes"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? Int } }
    }

    @Test func `the overview data needs a console session and is never cached`() async throws {
        let server = try await LiveServer()
        for cookie in [nil, "assent_console=not-a-session"] {
            let (reply, _) = try await Self.get(server, "/admin/api/overview", cookie: cookie)
            #expect(reply.status == 401)
            #expect(reply.json["errorCode"] as? String == "unauthorized")
            #expect(reply.json["error"] as? String == "unauthorized")
            #expect(reply.json["errorDescription"] is String)
            #expect(reply.headers["cache-control"] == "no-store")
        }
        await server.stop()
    }

    @Test func `the overview shows this instance's challenges at once, in their minute, and totals from the counters`() async throws {
        let server = try await LiveServer()
        let cookie = try await Self.signIn(server)
        var json = try await Self.overview(server, cookie: cookie)
        #expect(json["tenantId"] as? String == server.tenant.tenant.id)
        #expect(Self.minutes(json).count == 60)
        #expect((json["totals"] as? [String: Any])?["users"] as? Int == 0)
        #expect((json["lastHour"] as? [String: Int]) == ["started": 0, "approved": 0, "denied": 0, "expired": 0])

        let device = TestDevice()
        let (token, _) = try await server.track("frank", "enrol", scope: "add:authenticators")
        let enrolled = try await server.request(
            "POST", "/v1/client/user-authenticators/qr-code", json: ["publicKey": device.publicKey],
            headers: ["Authorization": "Bearer \(token)"])
        #expect(enrolled.status == 200)
        for _ in 0..<2 {
            let started = try await server.request(
                "POST", "/v1/client/challenge/qr-code", json: ["action": "signIn"], headers: server.tenantAuth)
            #expect(started.status == 200)
        }

        json = try await Self.overview(server, cookie: cookie)
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["users"] as? Int == 1)
        #expect(totals["authenticators"] as? Int == 1)
        #expect(totals["authenticatorsByMethod"] as? [String: Int] == ["DEVICE": 1])
        #expect(json["labels"] as? [String: String] == ["DEVICE": "QR code device"], "the page's words for the wire names")
        #expect(totals["activations"] as? Int == 0)
        #expect(Self.minutes(json).last?["started"] == 2)
        #expect((json["lastHour"] as? [String: Int])?["started"] == 2)
        #expect((json["lastHourByKind"] as? [String: [String: Int]])?["qr"]?["started"] == 2)
        #expect((json["lastHourByKind"] as? [String: [String: Int]])?["push"]?["started"] == 0)

        // A minute later the starts are in the minute before the current one.
        server.clock.advance(seconds: 60)
        json = try await Self.overview(server, cookie: cookie)
        let minutes = Self.minutes(json)
        #expect(minutes[58]["started"] == 2)
        #expect(minutes[59]["started"] == 0)
        #expect((json["lastHour"] as? [String: Int])?["started"] == 2)

        // The signed-in page carries the chart, its table and its script.
        let (page, html) = try await Self.get(server, "/admin/", cookie: cookie)
        #expect(page.status == 200)
        for marker in ["id=\"overview-chart\"", "id=\"overview-table\"", "src=\"/web/console-overview.js\"", "id=\"count-users\""] {
            #expect(html.contains(marker))
        }
        await server.stop()
    }
    @Test func `challenges started through another instance on one PostgreSQL show once that instance flushed, counted once`() async throws {
        let a = try await LiveServer(postgresSharing: nil)
        let b = try await LiveServer(postgresSharing: a)
        let cookie = try await Self.signIn(a)
        func started() async throws -> Int {
            (try await Self.overview(a, cookie: cookie)["lastHour"] as? [String: Int])?["started"] ?? -1
        }
        func start(on server: LiveServer, _ count: Int) async throws {
            for _ in 0..<count {
                let reply = try await server.request(
                    "POST", "/v1/client/challenge/qr-code", json: ["action": "signIn"], headers: server.tenantAuth)
                #expect(reply.status == 200)
            }
        }
        try await start(on: b, 3)
        // Both instances' wall clocks are manual and never move here, so the chart's minute never ends: B's counts
        // can only reach the store through its own periodic flush (every 0.5 s of real time), never through a flush
        // bound to the chart's minutes. The deadline only keeps a broken flush from hanging the run; how long a loaded
        // machine takes is no part of the claim (a wall-time bound here failed under load).
        let since = ContinuousClock.now
        var seen = try await started()
        while seen < 3, ContinuousClock.now - since < .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
            seen = try await started()
        }
        #expect(seen == 3)
        try await start(on: a, 2)
        #expect(try await started() == 5)  // A's own, at once
        for _ in 0..<10 {
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await started() == 5)  // and never twice as A flushes them
        }
        await b.stop()
        await a.stop()
    }
}
