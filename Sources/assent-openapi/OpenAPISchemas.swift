import AssentWire
import Foundation

/// The JSON Schema pieces of the document: the wire types' components (from their ``WireSchema`` tables) and the few
/// answers the server writes without a wire type of their own.
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

    static func string(_ description: String? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "string"]
        if let description { schema["description"] = description }
        return schema
    }

    static func boolean(_ description: String? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "boolean"]
        if let description { schema["description"] = description }
        return schema
    }

    static func object(_ description: String, _ properties: [String: Any], required: [String] = []) -> [String: Any] {
        var schema: [String: Any] = ["type": "object", "description": description, "properties": properties]
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    /// Answers the server writes as plain objects (no wire type yet): their schemas are declared here only.
    nonisolated(unsafe) static let serverOnly: [String: Any] = [
        "TenantSettings": [
            "type": "object", "additionalProperties": true,
            "description": "Every tenant setting (docs/tenant-settings.md), nulls explicit; a PATCH sends the ones it "
                + "changes.",
        ] as [String: Any],
        "DeleteUserResponse": object(
            "The user and everything of theirs is gone.",
            ["userId": string(), "deleted": boolean("False when there was no such user.")], required: ["userId", "deleted"]),
        "ResetUserPushResponse": object(
            "The user's push throttle and fraud lock are lifted.",
            ["userId": string(), "reset": boolean()], required: ["userId", "reset"]),
        "DeleteAuthenticatorResponse": object(
            "The authenticator is removed.",
            ["userAuthenticatorId": string(), "deleted": boolean()], required: ["userAuthenticatorId", "deleted"]),
        "PushSettings": object(
            "The tenant's push provider; credentials are never shown, only whether they are configured.",
            [
                "provider": string("webhook, apns, fcm, ..."),
                "webhookUrl": string("Where push.created goes."),
                "webhookBestEffort": boolean(),
                "apns": object(
                    "APNs without the key.",
                    ["configured": boolean(), "keyId": string(), "teamId": string(), "topic": string(),
                     "environment": string("sandbox or production.")],
                    required: ["configured"]),
                "fcm": object(
                    "FCM without the service account's key.",
                    ["configured": boolean(), "projectId": string(), "clientEmail": string()], required: ["configured"]),
            ],
            required: ["provider", "webhookBestEffort", "apns", "fcm"]),
        "Health": object(
            "The server and its database answer.",
            ["status": string(), "database": string(), "databaseKind": string("sqlite or postgresql."),
             "databaseLatencyMs": ["type": "number"]],
            required: ["status", "database", "databaseKind"]),
        "HealthUnavailable": [
            "description": "The database does not answer: the error envelope with the health fields.",
            "allOf": [
                ref(ErrorResponse.self),
                object("Health fields.", ["status": string(), "database": string(), "databaseKind": string()],
                       required: ["status", "database", "databaseKind"]),
            ],
        ],
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
