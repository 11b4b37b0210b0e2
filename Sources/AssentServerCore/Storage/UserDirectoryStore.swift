/// What the admin console reads about a tenant's users beyond what the services read: a page of users whose id
/// starts with a prefix, and a user's latest challenges. Both are bounded reads over an index (never a scan of the
/// tenant's users or challenges), so a console page costs the same with ten users or ten million.
package protocol UserDirectoryStore: Sendable {
    /// Up to `limit` users of the tenant whose id starts with `prefix` (byte-wise, so every id with the prefix is
    /// found whatever the database's collation) and sorts after `after` (the last id of the previous page; nil for
    /// the first page), in byte order of their ids.
    func searchUsers(tenantID: String, prefix: String, after: String?, limit: Int) async throws -> [User]
    /// The user's `limit` newest challenges (push and QR), newest first.
    func recentChallenges(tenantID: String, userID: String, limit: Int) async throws -> [Challenge]
}
