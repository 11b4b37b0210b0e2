import AssentServerCore

/// The admin console's statements, the same in both dialects.
enum ConsoleQueries {
    static let tokenColumns = "id, tenant_id, token_hash, name, created_at, expires_at"
    static let sessionColumns = """
        id_hash, tenant_id, principal, created_at, last_seen_at, idle_expires_at, expires_at, secret_version
        """
    static let insertToken: SQL = "INSERT INTO admin_tokens (\(tokenColumns)) VALUES ($1, $2, $3, $4, $5, $6)"
    static let tokenByHash: SQL = "SELECT \(tokenColumns) FROM admin_tokens WHERE token_hash = $1"
    static let tokensOfTenant: SQL = "SELECT \(tokenColumns) FROM admin_tokens WHERE tenant_id = $1 ORDER BY created_at, id"
    static let deleteToken: SQL = "DELETE FROM admin_tokens WHERE id = $1"
    static let deleteTokenSessions: SQL = "DELETE FROM console_sessions WHERE principal = $1"
    static let insertSession: SQL = "INSERT INTO console_sessions (\(sessionColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    static let sessionByHash: SQL = "SELECT \(sessionColumns) FROM console_sessions WHERE id_hash = $1"
    static let touchSession: SQL = "UPDATE console_sessions SET last_seen_at = $1, idle_expires_at = $2 WHERE id_hash = $3"
    static let deleteSession: SQL = "DELETE FROM console_sessions WHERE id_hash = $1"

    static func token(_ row: some StoreRow) throws -> AdminToken {
        AdminToken(
            id: try row.string(0), tenantID: try row.string(1), tokenHash: row.blob(2), name: try row.string(3),
            createdAt: row.int64(4), expiresAt: row.int64(5))
    }

    static func session(_ row: some StoreRow) throws -> ConsoleSession {
        ConsoleSession(
            idHash: row.blob(0), tenantID: try row.string(1), principal: try row.string(2), createdAt: row.int64(3),
            lastSeenAt: row.int64(4), idleExpiresAt: row.int64(5), expiresAt: row.int64(6),
            secretVersion: row.optionalInt64(7).map { Int($0) })
    }
}

extension SQLStore {
    package func insertAdminToken(_ token: AdminToken) async throws {
        let values: [StoreValue] = [
            .text(token.id), .text(token.tenantID), .blob(token.tokenHash), .text(token.name), .integer(token.createdAt),
            .integer(token.expiresAt),
        ]
        try await writeOne { try $0.update(ConsoleQueries.insertToken, values) }
    }

    package func adminToken(tokenHash: [UInt8]) async throws -> AdminToken? {
        try await read { try $0.queryOne(ConsoleQueries.tokenByHash, [.blob(tokenHash)], ConsoleQueries.token) }
    }

    package func adminTokens(tenantID: String) async throws -> [AdminToken] {
        try await read { try $0.query(ConsoleQueries.tokensOfTenant, [.text(tenantID)], ConsoleQueries.token) }
    }

    package func deleteAdminToken(id: String) async throws -> Bool {
        try await write { db in
            guard try db.update(ConsoleQueries.deleteToken, [.text(id)]) == 1 else { return false }
            _ = try db.update(ConsoleQueries.deleteTokenSessions, [.text("admin-token:" + id)])
            return true
        }
    }

    package func insertConsoleSession(_ session: ConsoleSession) async throws {
        let values: [StoreValue] = [
            .blob(session.idHash), .text(session.tenantID), .text(session.principal), .integer(session.createdAt),
            .integer(session.lastSeenAt), .integer(session.idleExpiresAt), .integer(session.expiresAt),
            .optional(session.secretVersion),
        ]
        try await writeOne { try $0.update(ConsoleQueries.insertSession, values) }
    }

    package func consoleSession(idHash: [UInt8]) async throws -> ConsoleSession? {
        try await read { try $0.queryOne(ConsoleQueries.sessionByHash, [.blob(idHash)], ConsoleQueries.session) }
    }

    package func touchConsoleSession(idHash: [UInt8], lastSeenAt: Int64, idleExpiresAt: Int64) async throws -> Bool {
        try await writeOne {
            try $0.update(ConsoleQueries.touchSession, [.integer(lastSeenAt), .integer(idleExpiresAt), .blob(idHash)]) == 1
        }
    }

    package func deleteConsoleSession(idHash: [UInt8]) async throws -> Bool {
        try await writeOne { try $0.update(ConsoleQueries.deleteSession, [.blob(idHash)]) == 1 }
    }
}
