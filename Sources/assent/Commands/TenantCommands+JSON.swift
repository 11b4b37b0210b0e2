import AssentServerCore
import AssentWire
import AssentCrypto

/// What the tenant commands print with `--json`. Absent values are written as `null`, so scripts see every key.
extension TenantCommands {
    /// `tenant create`.
    struct CreatedJSON: Encodable {
        let tenantId: String
        let name: String
        let secretKey: String
        let createdAt: String
    }

    /// `tenant rotate-secret`.
    struct RotatedJSON: Encodable {
        let tenantId: String
        let name: String
        let secretKey: String
    }

    /// A tenant without its secret: `tenant list` (an array of these) and `tenant settings`.
    struct TenantJSON: Encodable {
        let tenantId: String
        let name: String
        let createdAt: String
        let keyVersion: Int
        /// Every setting (``TenantSettings/json``), nulls explicit.
        let settings: JSONValue

        init(_ tenant: Tenant) {
            tenantId = tenant.id
            name = tenant.name
            createdAt = Timestamp.iso8601(milliseconds: tenant.createdAt)
            keyVersion = tenant.keyVersion
            settings = tenant.settings.json
        }
    }
}
