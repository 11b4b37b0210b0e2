import Assent
import AssentTesting
import Foundation
import Testing

/// The fake transport records what it is sent and answers its routes in order.
@Suite struct FakeTransportTests {
    private func request(_ method: String, _ url: String, body: String? = nil) -> TransportRequest {
        TransportRequest(method: method, url: URL(string: url)!, body: body.map { Data($0.utf8) })
    }

    @Test func `every request is recorded in order, whatever its route`() async throws {
        let transport = FakeTransport()
        _ = try await transport.send(request("GET", "http://a.test/v1/x?publicKey=abc"))
        _ = try await transport.send(request("POST", "http://a.test/v1/y", body: #"{"k":1}"#))
        _ = try await transport.send(request("GET", "http://a.test/v1/x"))
        #expect(transport.requests.map(\.method) == ["GET", "POST", "GET"])
        #expect(transport.requests("GET", "/v1/x").count == 2)
        #expect(transport.requests("POST", "/v1/y").first?.body == Data(#"{"k":1}"#.utf8))
        #expect(transport.requests[0].query("publicKey") == "abc" && transport.requests[2].query("publicKey") == nil)
        #expect(try transport.requests[1].jsonBody()["k"] as? Int == 1)
        #expect(throws: TransportRequest.NotAJSONObject.self) { try transport.requests[0].jsonBody() }
    }

    @Test func `a route answers in order, then repeats its last answer; an unknown route is 404`() async throws {
        let transport = FakeTransport()
        transport.on("GET", "/v1/x", status: 500, json: #"{"errorCode":"boom"}"#)
        transport.on("GET", "/v1/x", json: #"{"ok":true}"#)
        let statuses = try await [1, 2, 3].asyncMap { _ in try await transport.send(request("GET", "http://a.test/v1/x")).status }
        #expect(statuses == [500, 200, 200])
        let unknown = try await transport.send(request("POST", "http://a.test/v1/x"))
        #expect(unknown.status == 404 && unknown.body.isEmpty)
    }

    @Test func `an unreachable route throws, and the SDK reports network_error`() async throws {
        let transport = FakeTransport()
        transport.unreachable("GET", "/v1/client/user-authenticators/push")
        await #expect(throws: FakeTransport.Unreachable.self) {
            _ = try await transport.send(request("GET", "http://a.test/v1/client/user-authenticators/push"))
        }
        let keyStore = InMemoryKeyStore()
        let assent = Assent(
            tenantID: "acme", baseURL: "http://a.test/v1", keyStore: keyStore, transport: transport,
            clock: ManualClock().clock)
        _ = try await keyStore.createKey(named: AssentPush.keyName, accessPolicy: KeyAccessPolicy())
        #expect(await assent.push.getCredential().errorCode == AssentErrorCode.networkError)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
