import AssentServerCore
import AssentWire
import Foundation

/// The JSON Schema pieces of the document: the wire types' components (from their ``WireSchema`` tables) and the
/// tenant settings' object.
enum OpenAPISchemas {
    /// The types operations name as a body or an answer; the types they refer to are added by ``components()``.
    static let roots: [any WireNamed.Type] = [
        ErrorResponse.self, TrackRequest.self, TrackResponse.self, ActionResponse.self, UpdateActionRequest.self,
        ValidateRequest.self, ValidateResponse.self, UserResponse.self, UpdateUserRequest.self,
        UserAuthenticatorResponse.self, EnrollAuthenticatorRequest.self, EnrollAuthenticatorResponse.self,
        UpdatePushSettingsRequest.self, AnonymousQRSettings.self, AuditListResponse.self, SignInListResponse.self, ChallengeTimelineResponse.self,
        ActivationResponse.self, ActivationListResponse.self, VerifySignatureRequest.self, VerifySignatureResponse.self,
        AddCredentialRequest.self, AddCredentialResponse.self, CredentialResponse.self, RemoveCredentialRequest.self,
        RemoveCredentialResponse.self, SigningMessageResponse.self, UpdateCredentialRequest.self,
        UpdateCredentialResponse.self, PushChallengeResponse.self, UpdateChallengeRequest.self,
        UpdateChallengeResponse.self, ClaimChallengeRequest.self, ClaimChallengeResponse.self,
        CreateActivationRequest.self, CreateActivationResponse.self, ActivationStatusRequest.self,
        ActivationStatusResponse.self, VaultUnlockRequest.self, VaultUnlockResponse.self, AttestationChallengeResponse.self,
        StartPushChallengeRequest.self,
        StartPushChallengeResponse.self, VerifyPushRequest.self, VerifyPushResponse.self, StartQRChallengeRequest.self,
        StartQRChallengeResponse.self, VerifyQRRequest.self, VerifyQRResponse.self, UserExportResponse.self,
        DeleteUserResponse.self, ResetUserPushResponse.self, DeleteAuthenticatorResponse.self, PushSettingsResponse.self,
        HealthResponse.self, HealthUnavailableResponse.self,
    ]

    /// Every component schema: the wire types' and ``serverOnly``.
    static func components() -> [String: Any] {
        var schemas: [String: Any] = serverOnly
        var pending = roots
        while let type = pending.popLast() {
            guard schemas[type.wireName] == nil else { continue }
            schemas[type.wireName] = type.wireComponent.foundation
            pending.append(contentsOf: type.wireReferences)
        }
        return schemas
    }

    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    static func ref(_ type: any WireNamed.Type) -> [String: Any] { ref(type.wireName) }

    /// The schema of `type` written in place (an answer of one operation only, such as a probe's).
    static func inline(_ type: any WireNamed.Type) -> [String: Any] {
        type.wireComponent.foundation as? [String: Any] ?? [:]
    }

    /// The schema no wire type's table gives: every tenant setting, one object whose members are the settings
    /// table's, each with the JSON Schema and effect its entry declares (``TenantSettings/table``, the same the CLI,
    /// the console and `docs/tenant-settings.md` follow).
    nonisolated(unsafe) static let serverOnly: [String: Any] = [
        "TenantSettings": [
            "type": "object", "additionalProperties": false,
            "description": "Every tenant setting (docs/tenant-settings.md), nulls explicit; a PATCH sends the ones it "
                + "changes (the server also reads snake_case names as their camelCase settings).",
            "properties": Dictionary(uniqueKeysWithValues: TenantSettings.table.map { ($0.name, $0.schema.foundation) }),
        ] as [String: Any],
    ]
}

extension JSONValue {
    /// The value as `JSONSerialization` takes it (whole numbers as integers).
    var foundation: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return number.rounded() == number && abs(number) < 1e15 ? Int(number) as Any : number
        case .string(let string): return string
        case .array(let elements): return elements.map(\.foundation)
        case .object(let members): return members.mapValues(\.foundation)
        }
    }
}
