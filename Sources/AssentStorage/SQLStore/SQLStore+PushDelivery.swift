import AssentServerCore

/// The push delivery queue's and timeline's statements that are the same in both dialects: the reads. The writes
/// differ — PostgreSQL puts each of them in one statement (one round trip: rows arrive as a JSON parameter, several
/// changes are parts of one `WITH`), which SQLite cannot say — so each store writes them itself.
enum PushDeliveryQueries {
    static let byChallenge: SQL = """
        SELECT \(StoreRecords.deliveryColumns) FROM push_deliveries d
        WHERE d.challenge_id = $1 AND d.tenant_id = $2 ORDER BY d.created_at, d.id
        """
    static let timeline: SQL = """
        SELECT \(StoreRecords.timelineColumns) FROM challenge_timeline WHERE challenge_id = $1 AND tenant_id = $2
        ORDER BY id
        """
}

extension SQLStore {
    package func pushDeliveries(tenantID: String, challengeID: String) async throws -> [PushDelivery] {
        try await read {
            try $0.query(PushDeliveryQueries.byChallenge, [.text(challengeID), .text(tenantID)], StoreRecords.delivery)
        }
    }

    package func challengeTimeline(tenantID: String, challengeID: String) async throws -> [ChallengeTimelineEntry] {
        try await read {
            try $0.query(PushDeliveryQueries.timeline, [.text(challengeID), .text(tenantID)], StoreRecords.timelineEntry)
        }
    }
}
