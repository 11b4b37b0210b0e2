import AssentServerCore

/// Attestation challenges' statements, the same in both dialects.
enum AttestationQueries {
    static let columns = "challenge, tenant_id, user_id, created_at, expires_at, spent_at"
    static let insert: SQL = "INSERT INTO attestation_challenges (\(columns)) VALUES ($1, $2, $3, $4, $5, $6)"
    static let byValue: SQL = "SELECT \(columns) FROM attestation_challenges WHERE tenant_id = $1 AND challenge = $2"

    static func challenge(_ row: some StoreRow) throws -> AttestationChallenge {
        AttestationChallenge(
            value: try row.string(0), tenantID: try row.string(1), userID: try row.string(2), createdAt: row.int64(3),
            expiresAt: row.int64(4), spentAt: row.optionalInt64(5))
    }
}

extension SQLStore {
    package func insertAttestationChallenge(_ challenge: AttestationChallenge) async throws {
        try await writeOne { db in
            try db.update(
                AttestationQueries.insert,
                [.text(challenge.value), .text(challenge.tenantID), .text(challenge.userID), .integer(challenge.createdAt),
                 .integer(challenge.expiresAt), .optional(challenge.spentAt)])
        }
    }

    package func attestationChallenge(tenantID: String, value: String) async throws -> AttestationChallenge? {
        try await read { db in
            try db.queryOne(AttestationQueries.byValue, [.text(tenantID), .text(value)], AttestationQueries.challenge)
        }
    }
}
