import AssentHTTP
import AssentServerCore
import AssentWire

/// Every tenant setting over the server API (secret-key Basic auth): `GET`/`PATCH /v1/tenant/settings`, the settings
/// of ``TenantSettings/table`` — those `assent admin tenant settings` and the console's settings page change — as one
/// JSON object, nulls explicit.
///
/// A `PATCH` names the settings it changes (camelCase or snake_case) with their new values in the JSON of
/// `GET`'s answer; a map (`actionRules`, `approvalFactorRules`) is replaced whole. Every value is checked by its
/// setting's rules, and a webhook URL by the server's ``OutboundURLPolicy``, before anything changes; an unknown
/// name is refused. The change is recorded in the audit log (`tenant.settings_changed`, names only) and answered
/// with every setting.
struct TenantSettingsAdministration: Sendable {
    let tenants: TenantDirectory
    let destinations: OutboundURLPolicy

    /// `GET /v1/tenant/settings`.
    func settings(_ tenant: Tenant) -> HTTPResponse {
        APIResponses.ok(tenant.settings.json.objectValue ?? [:])
    }

    /// `PATCH /v1/tenant/settings` with the body's members.
    func update(_ changes: [(key: String, value: JSONValue)], _ tenant: Tenant) async throws -> HTTPResponse {
        let checked = try tenant.settings.applying(changes)
        if let url = checked.webhookURL, url != tenant.settings.webhookURL {
            try await destinations.check(url, field: "webhookURL")
        }
        let updated = try await tenants.updateSettings(tenantID: tenant.id, actor: ServerAPI.actor) { settings in
            settings = try settings.applying(changes)
        }
        return APIResponses.ok(updated.settings.json.objectValue ?? [:])
    }
}
