import AssentCrypto
import AssentServerCore
import Foundation

extension TenantCommands {
    /// `tenant powerauth`: the tenant's PowerAuth application, created on first use.
    static let powerAuth = Command.leaf(
        "powerauth", "show the tenant's PowerAuth application key, secret and master public key (for SDK configuration)",
        details: """
            Creates the application (random key and secret, P-256 master key pair) on first use, as assentd does.
            Pin masterPublicKey in the SDK; it verifies every activation. The master private key is stored encrypted
            under the server master key and never shown.
            """,
        options: [TenantDatabase.option, TenantDatabase.tenantOption]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let application = try await TenantDatabase.withStore(invocation) { store, keys in
            _ = try await TenantDatabase.tenant(tenantID, in: store)
            let service = ActivationService(store: store, clock: .system, keys: keys)
            return try await service.application(tenantID: tenantID)
        }
        let json = PowerAuthJSON(
            tenantId: tenantID, applicationKey: application.applicationKey, applicationSecret: application.applicationSecret,
            masterPublicKey: Base64.encode(application.masterPublicKey))
        try invocation.output.result(json) {
            """
            tenant:            \(json.tenantId)
            applicationKey:    \(json.applicationKey)
            applicationSecret: \(json.applicationSecret)
            masterPublicKey:   \(json.masterPublicKey)
            """
        }
    }

    /// `tenant powerauth --json`.
    struct PowerAuthJSON: Encodable {
        let tenantId: String
        let applicationKey: String
        let applicationSecret: String
        let masterPublicKey: String
    }
}
