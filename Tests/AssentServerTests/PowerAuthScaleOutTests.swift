import AssentCrypto
import AssentWire
@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing

/// PowerAuth with two `assentd` instances (two applications, two connection pools) on one PostgreSQL database: an
/// activation made through one verifies through the other, and a counter value is consumed once however the requests
/// signed with it are spread over both.
@Suite struct PowerAuthScaleOutTests {
    let body = Array(#"{"amount":"7.00"}"#.utf8)

    @Test func `sixteen requests signed with one counter value through two instances: exactly one is accepted`() async throws {
        let a = try await LiveServer(postgresSharing: nil)
        let b = try await LiveServer(postgresSharing: a)
        let device = try await PowerAuthTestDevice.activate(b, user: "erin")
        for type in [PowerAuthSignatureType.possession, .possessionKnowledge] {
            let headers = try (0..<16).map { _ in
                try device.header(uriID: "/transfer", body: body, type: type, advance: false)
            }
            device.counterData = PowerAuthCounter.next(device.counterData)
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (i, header) in headers.enumerated() {
                    let server = i % 2 == 0 ? a : b
                    group.addTask { [body] in
                        try await server.verifySignature(header, uriID: "/transfer", body: body).json["valid"] as? Bool == true
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count == 16)
            #expect(results.filter { $0 }.count == 1, "\(type): \(results.filter { $0 }.count) accepted")
            // The fifteen losers are not counted, on either instance: their counter value is used up, so nothing of
            // them verifies.
            let stored = try await a.request("GET", "/v1/activations/\(device.activationID)", headers: a.secretAuth)
            #expect(stored.json["activationStatus"] as? String == "ACTIVE" && stored.json["failedAttempts"] as? Int == 0)
        }
        // The counter moved exactly twice, as both instances read it, and the next signature verifies on either.
        for server in [a, b] {
            let stored = try await server.application.activations.activation(tenantID: a.tenant.tenant.id, id: device.activationID)
            #expect(stored.counter == 2 && stored.counterData == device.counterData)
        }
        let next = try device.header(uriID: "/transfer", body: body, type: .possessionKnowledge)
        #expect(try await a.verifySignature(next, uriID: "/transfer", body: body).json["valid"] as? Bool == true)
        await b.stop()
        await a.stop()
    }
}
