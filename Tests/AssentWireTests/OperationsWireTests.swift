import AssentWire
import Testing

/// The health probes' answers (`/healthz`, `/healthz/live`, `/healthz/ready`) against golden JSON.
@Suite struct OperationsWireTests {
    @Test func `HealthResponse names the database and its latency`() throws {
        let health = try Golden.roundTrip(HealthResponse.self)
        #expect(health == HealthResponse(databaseKind: "sqlite", databaseLatencyMs: 0.157))
        #expect(HealthResponse.wireName == "Health")
    }

    @Test func `HealthUnavailableResponse is the error envelope with the health fields, in one object`() throws {
        let unavailable = try Golden.roundTrip(HealthUnavailableResponse.self)
        #expect(unavailable == HealthUnavailableResponse(
            databaseKind: "postgresql", errorCode: "unavailable", errorDescription: "The database does not answer."))
        #expect(unavailable.envelope.error == "unavailable")
        // Its schema is the envelope's and its own fields' (allOf), and it refers to the envelope as a component.
        guard case .object(let schema) = HealthUnavailableResponse.wireComponent, case .array(let parts)? = schema["allOf"],
              parts.count == 2, case .object(let own) = parts[1]
        else { Issue.record("no allOf schema"); return }
        #expect(parts[0] == .object(["$ref": .string("#/components/schemas/ErrorResponse")]))
        #expect(own["required"] == .array(["status", "database", "databaseKind"].map(JSONValue.string)))
        #expect(HealthUnavailableResponse.wireReferences.map { $0.wireName } == ["ErrorResponse"])
    }

    @Test func `the liveness and readiness answers say ok and ready`() throws {
        #expect(try Golden.roundTrip(LivenessResponse.self).status == "ok")
        #expect(try Golden.roundTrip(ReadinessResponse.self) == ReadinessResponse(databaseKind: "postgresql"))
    }
}
