import AssentHTTP
import AssentServerCore
import AssentWire

/// The tenant's anonymous QR settings over the server API (secret-key Basic auth): `GET`/`PATCH /v1/tenant/qr-code`
/// (``AnonymousQRSettings``), two of the settings of ``TenantSettings/table`` — the same that `assent admin tenant
/// settings --anonymous-actions` and `--anonymous-approval-factor` and `/v1/tenant/settings` change, read, checked and
/// written by the table as there. The route's own type adds only its shape (a `PATCH` may name at most
/// ``AnonymousQRSettings/maxActionCodes`` codes) and its schema.
struct QRCodeAdministration: Sendable {
    let tenants: TenantDirectory

    /// The settings the route shows and changes: its type's fields, each a setting of the table.
    private static let settings: [TenantSetting] = AnonymousQRSettings.wireFields.fields.map { field in
        guard let setting = TenantSettings.setting(named: field.name) else {
            preconditionFailure("AnonymousQRSettings.\(field.name) is no tenant setting")
        }
        return setting
    }

    /// `GET /v1/tenant/qr-code`.
    func settings(_ tenant: Tenant) -> HTTPResponse {
        APIResponses.ok(Self.view(tenant.settings))
    }

    /// `PATCH /v1/tenant/qr-code`: the fields present, checked by the table's rules (a refusal changes nothing).
    func update(_ request: AnonymousQRSettings, _ tenant: Tenant) async throws -> HTTPResponse {
        var changes: [(key: String, value: JSONValue)] = []
        if let codes = request.anonymousActionCodes {
            changes.append(("anonymousActionCodes", .array(codes.map(JSONValue.string))))
        }
        if let factor = request.anonymousApprovalFactor {
            changes.append(("anonymousApprovalFactor", factor.map(JSONValue.string) ?? .null))
        }
        let updated = try await tenants.updateSettings(tenantID: tenant.id, actor: ServerAPI.actor) { settings in
            settings = try settings.applying(changes)
        }
        return APIResponses.ok(Self.view(updated.settings))
    }

    /// The route's settings as the table writes them (nulls explicit), as `GET /v1/tenant/settings` shows them.
    private static func view(_ settings: TenantSettings) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: Self.settings.map { ($0.name, $0.json(settings)) })
    }
}
