import AssentServerCore

extension SQLStore {
    package func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int {
        // Plain deletes of rows no one can use any more: running on every instance at once is harmless.
        try await write { db in
            try db.update("DELETE FROM challenges WHERE expires_at < $1", [.integer(challengesBefore)])
                + db.update("DELETE FROM nonces WHERE expires_at < $1", [.integer(now)])
                + db.update(
                    "DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < $1", [.integer(eventsBefore)])
        }
    }
}
