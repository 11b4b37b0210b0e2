import AssentServerCore

/// The admin console's reads of users and their challenges (``UserDirectoryStore``), the same in both dialects.
///
/// The user search is a range over the ids in byte order, `user_id >= prefix`, cut where the ids stop starting
/// with the prefix: in byte order every id with a prefix sorts right after it, one contiguous run. SQLite compares
/// text byte-wise (`BINARY`), so its primary key `(tenant_id, user_id)` serves the range and the order. PostgreSQL
/// compares by the database's collation, in which ids sharing a prefix need not be contiguous (`en_US` ignores
/// punctuation at first), so it compares `COLLATE "C"` (byte-wise) and schema step 15 gives it the index of that
/// order, `users_by_id_bytes (tenant_id, user_id COLLATE "C")`.
enum UserDirectoryQueries {
    /// `$1` tenant, `$2` prefix, `$3` the previous page's last id (or empty), `$4` limit.
    static let search: SQL = """
        SELECT \(StoreRecords.userColumns) FROM users
        WHERE tenant_id = $1 AND user_id\(postgres: " COLLATE \"C\"") >= $2
          AND user_id\(postgres: " COLLATE \"C\"") > $3
        ORDER BY user_id\(postgres: " COLLATE \"C\"") LIMIT $4
        """
    /// `$1` tenant, `$2` user, `$3` limit: over the `challenges_pending` index's `(tenant_id, user_id)` prefix;
    /// challenges are swept after their retention, so one user's rows stay few.
    static let recentChallenges: SQL = """
        SELECT \(StoreRecords.challengeColumns) FROM challenges
        WHERE tenant_id = $1 AND user_id = $2 ORDER BY created_at DESC, id LIMIT $3
        """
}

extension SQLStore {
    package func searchUsers(tenantID: String, prefix: String, after: String?, limit: Int) async throws -> [User] {
        let values: [StoreValue] = [.text(tenantID), .text(prefix), .text(after ?? ""), .integer(Int64(max(0, limit)))]
        let rows = try await read { try $0.query(UserDirectoryQueries.search, values, StoreRecords.user) }
        // The run of ids with the prefix ends at the first id without it.
        return Array(rows.prefix { $0.userID.utf8.starts(with: prefix.utf8) })
    }

    package func recentChallenges(tenantID: String, userID: String, limit: Int) async throws -> [Challenge] {
        try await read {
            try $0.query(
                UserDirectoryQueries.recentChallenges, [.text(tenantID), .text(userID), .integer(Int64(max(0, limit)))],
                StoreRecords.challenge)
        }
    }
}
