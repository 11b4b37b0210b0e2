import AssentCrypto
import AssentHTTP
import AssentServerCore
import AssentWire

/// The tenant's anonymous QR settings over the server API (secret-key Basic auth): `GET`/`PATCH /v1/tenant/qr-code`
/// (``AnonymousQRSettings``), the same settings `assent admin tenant settings --anonymous-actions` and
/// `--anonymous-approval-factor` change.
struct QRCodeAdministration: Sendable {
    let tenants: TenantDirectory

    /// `GET /v1/tenant/qr-code`.
    func settings(_ tenant: Tenant) -> HTTPResponse {
        APIResponses.ok(Self.view(tenant.settings))
    }

    /// `PATCH /v1/tenant/qr-code`. All checked before anything changes.
    func update(_ request: AnonymousQRSettings, _ tenant: Tenant) async throws -> HTTPResponse {
        var factor: PowerAuthSignatureType??
        if let name = request.anonymousApprovalFactor {
            if let name {
                guard let type = PowerAuthSignatureType(rawValue: name) else {
                    let names = PowerAuthSignatureType.allCases.map(\.rawValue)
                    throw AssentError(.invalidRequest, WireDecodingError.notOneOf("anonymousApprovalFactor", names).reason)
                }
                factor = .some(type)
            } else {
                factor = .some(nil)
            }
        }
        let updated = try await tenants.updateSettings(tenantID: tenant.id, actor: ServerAPI.actor) { settings in
            if let codes = request.anonymousActionCodes { settings.anonymousActionCodes = codes }
            if let factor { settings.anonymousApprovalFactor = factor }
        }
        return APIResponses.ok(Self.view(updated.settings))
    }

    private static func view(_ settings: TenantSettings) -> AnonymousQRSettings {
        AnonymousQRSettings(
            anonymousActionCodes: settings.anonymousActionCodes,
            anonymousApprovalFactor: .some(settings.anonymousApprovalFactor?.rawValue))
    }
}
