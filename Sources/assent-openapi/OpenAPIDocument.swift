import AssentWire
import Foundation

/// `openapi/assent.json`: every API route of the endpoint catalogue (``Endpoint``), with the schemas of the wire types
/// (each declared once, in its ``WireSchema`` table), the security schemes and the error envelope.
enum OpenAPIDocument {
    typealias Operation = OpenAPIOperation

    /// The documented operations, in the catalogue's order.
    nonisolated(unsafe) static let operations: [Operation] = [
        // Server API
        Operation(endpoint: .track, id: "track", tag: "Server API", summary: "Track an action for a user.",
                  security: Operation.server, parameters: [Operation.userID, Operation.action], body: (TrackRequest.self, false),
                  ok: Operation.ok("The action's state and the track token.", TrackResponse.self), errors: [400, 401, 415]),
        Operation(endpoint: .getAction, id: "getAction", tag: "Server API", summary: "Read a tracked action.",
                  security: Operation.server, parameters: [Operation.userID, Operation.action, Operation.idempotencyKey],
                  ok: Operation.ok("The action.", ActionResponse.self), errors: [400, 401, 404]),
        Operation(endpoint: .updateAction, id: "updateAction", tag: "Server API", summary: "Set a tracked action's state.",
                  security: Operation.server, parameters: [Operation.userID, Operation.action, Operation.idempotencyKey],
                  body: (UpdateActionRequest.self, true), ok: Operation.ok("The action.", ActionResponse.self),
                  errors: [400, 401, 404, 409, 415]),
        Operation(endpoint: .validate, id: "validate", tag: "Server API", summary: "Validate a token a device or page obtained.",
                  security: Operation.server, body: (ValidateRequest.self, true),
                  ok: Operation.ok("Whether the token proves a completed challenge.", ValidateResponse.self), errors: [400, 401, 415]),
        Operation(endpoint: .getUser, id: "getUser", tag: "Server API", summary: "Read a user.", security: Operation.server,
                  parameters: [Operation.userID], ok: userOK, errors: [400, 401]),
        Operation(endpoint: .updateUser, id: "updateUser", tag: "Server API", summary: "Update a user's attributes.",
                  security: Operation.server, parameters: [Operation.userID], body: (UpdateUserRequest.self, false),
                  ok: Operation.ok("The user.", UserResponse.self), errors: [400, 401, 415]),
        Operation(endpoint: .updateUserByPost, id: "updateUserByPost", tag: "Server API",
                  summary: "Update a user's attributes, as PATCH does (Authsignal's Python SDK 3.0.0 and 2.0.7 send POST).",
                  security: Operation.server, parameters: [Operation.userID], body: (UpdateUserRequest.self, false),
                  ok: Operation.ok("The user.", UserResponse.self), errors: [400, 401, 415]),
        Operation(endpoint: .deleteUser, id: "deleteUser", tag: "Server API", summary: "Delete a user and their authenticators.",
                  security: Operation.server, parameters: [Operation.userID],
                  ok: Operation.ok("Whether a user was deleted.", DeleteUserResponse.self), errors: [400, 401]),
        Operation(endpoint: .exportUser, id: "exportUser", tag: "Server API",
                  summary: "Everything Assent holds about a user (a data-subject request); recorded as user.exported.",
                  security: Operation.server, parameters: [Operation.userID],
                  ok: Operation.ok("The user's data.", UserExportResponse.self), errors: [400, 401]),
        Operation(endpoint: .resetUserPush, id: "resetUserPush", tag: "Server API",
                  summary: "End a user's push throttle and fraud lock.", security: Operation.server, parameters: [Operation.userID],
                  ok: Operation.ok("The lock is lifted.", ResetUserPushResponse.self), errors: [400, 401]),
        Operation(endpoint: .getAuthenticators, id: "getAuthenticators", tag: "Server API",
                  summary: "List a user's authenticators.", security: Operation.server, parameters: [Operation.userID],
                  ok: Operation.ok("The authenticators.", "application/json",
                                   ["type": "array", "items": OpenAPISchemas.ref(UserAuthenticatorResponse.self)]),
                  errors: [400, 401]),
        Operation(endpoint: .enrollAuthenticator, id: "enrollAuthenticator", tag: "Server API",
                  summary: "Enrol a method the backend verified itself.", security: Operation.server,
                  parameters: [Operation.userID], body: (EnrollAuthenticatorRequest.self, true),
                  ok: Operation.ok("The authenticator.", EnrollAuthenticatorResponse.self), errors: [400, 401, 409, 415]),
        Operation(endpoint: .deleteAuthenticator, id: "deleteAuthenticator", tag: "Server API",
                  summary: "Remove one of a user's authenticators.", security: Operation.server,
                  parameters: [Operation.userID, Operation.pathParameter("userAuthenticatorId", "The authenticator.")],
                  ok: Operation.ok("The authenticator is removed.", DeleteAuthenticatorResponse.self),
                  errors: [400, 401, 404]),
        Operation(endpoint: .getPushSettings, id: "getPushSettings", tag: "Tenant settings",
                  summary: "The tenant's push provider and settings.", security: Operation.server,
                  ok: Operation.ok("The settings, without credentials.", PushSettingsResponse.self), errors: [401]),
        Operation(endpoint: .updatePushSettings, id: "updatePushSettings", tag: "Tenant settings",
                  summary: "Change the push provider and credentials.", security: Operation.server,
                  body: (UpdatePushSettingsRequest.self, false),
                  ok: Operation.ok("The settings, without credentials.", PushSettingsResponse.self),
                  errors: [400, 401, 415]),
        Operation(endpoint: .getAnonymousQRSettings, id: "getAnonymousQRSettings", tag: "Tenant settings",
                  summary: "What anonymous QR starts may do.", security: Operation.server,
                  ok: Operation.ok("The settings.", AnonymousQRSettings.self), errors: [401]),
        Operation(endpoint: .updateAnonymousQRSettings, id: "updateAnonymousQRSettings", tag: "Tenant settings",
                  summary: "Change what anonymous QR starts may do.", security: Operation.server,
                  body: (AnonymousQRSettings.self, false), ok: Operation.ok("The settings.", AnonymousQRSettings.self),
                  errors: [400, 401, 415]),
        Operation(endpoint: .getTenantSettings, id: "getTenantSettings", tag: "Tenant settings",
                  summary: "Every tenant setting.", security: Operation.server,
                  ok: Operation.ok("The settings.", schemaNamed: "TenantSettings"), errors: [401]),
        Operation(endpoint: .updateTenantSettings, id: "updateTenantSettings", tag: "Tenant settings",
                  summary: "Change tenant settings.", security: Operation.server,
                  body: (schemaNamed: "TenantSettings", required: false),
                  ok: Operation.ok("The settings.", schemaNamed: "TenantSettings"), errors: [400, 401, 415]),
        Operation(endpoint: .getChallengeTimeline, id: "getChallengeTimeline", tag: "Timeline",
                  summary: "A challenge's timeline (start, deliveries, answer or expiry), any kind, any push provider.",
                  security: Operation.server, parameters: [Operation.pathParameter("challengeId", "The push challenge.")],
                  ok: Operation.ok("The timeline.", ChallengeTimelineResponse.self), errors: [400, 401, 404]),
        Operation(endpoint: .getActivation, id: "getActivation", tag: "PowerAuth", summary: "Read a PowerAuth activation.",
                  security: Operation.server, parameters: [Operation.activationID],
                  ok: Operation.ok("The activation.", ActivationResponse.self), errors: [400, 401, 404]),
        Operation(endpoint: .getActivations, id: "getActivations", tag: "PowerAuth",
                  summary: "List a user's PowerAuth activations.", security: Operation.server, parameters: [Operation.userID],
                  ok: Operation.ok("The activations.", ActivationListResponse.self), errors: [400, 401]),
        Operation(endpoint: .commitActivation, id: "commitActivation", tag: "PowerAuth",
                  summary: "Commit a PENDING_COMMIT activation.", security: Operation.server, parameters: [Operation.activationID],
                  ok: Operation.ok("The activation.", ActivationResponse.self), errors: [400, 401, 404, 409]),
        Operation(endpoint: .blockActivation, id: "blockActivation", tag: "PowerAuth", summary: "Block an activation.",
                  security: Operation.server, parameters: [Operation.activationID],
                  ok: Operation.ok("The activation.", ActivationResponse.self), errors: [400, 401, 404, 409]),
        Operation(endpoint: .unblockActivation, id: "unblockActivation", tag: "PowerAuth", summary: "Unblock an activation.",
                  security: Operation.server, parameters: [Operation.activationID],
                  ok: Operation.ok("The activation.", ActivationResponse.self), errors: [400, 401, 404, 409]),
        Operation(endpoint: .removeActivation, id: "removeActivation", tag: "PowerAuth", summary: "Remove an activation.",
                  security: Operation.server, parameters: [Operation.activationID],
                  ok: Operation.ok("The activation.", ActivationResponse.self), errors: [400, 401, 404, 409]),
        Operation(endpoint: .verifySignature, id: "verifySignature", tag: "PowerAuth",
                  summary: "Verify a PowerAuth-signed request the backend received.", security: Operation.server,
                  body: (VerifySignatureRequest.self, true),
                  ok: Operation.ok("The verification's result.", VerifySignatureResponse.self), errors: [400, 401, 415]),
        Operation(endpoint: .getAuditLog, id: "getAuditLog", tag: "Audit", summary: "A page of the tenant's audit log.",
                  security: Operation.server,
                  parameters: [
                      Operation.queryParameter("since", "Only entries at or after this time (ISO-8601 UTC or milliseconds).",
                                               maxLength: 40, required: false),
                      Operation.queryParameter("kind", "Only entries of this kind, e.g. credential.enrolled.", maxLength: 64,
                                               required: false),
                      Operation.queryParameter("limit", "Entries per page, 1 to 1000 (default 100).", maxLength: 10,
                                               required: false),
                      Operation.queryParameter("cursor", "The previous page's nextCursor.", maxLength: 20, required: false),
                  ],
                  ok: Operation.ok("The entries.", AuditListResponse.self), errors: [400, 401]),
        Operation(endpoint: .getSignIns, id: "getSignIns", tag: "Audit",
                  summary: "A page of the tenant's authentication history, newest first, or its CSV or JSON-lines export.",
                  security: Operation.server,
                  parameters: [
                      Operation.queryParameter("user", "Only this user's sign-ins.", maxLength: 255, required: false),
                      Operation.queryParameter("outcome", "Only this outcome: approved, declined, expired or refused.",
                                               maxLength: 20, required: false),
                      Operation.queryParameter("method", "Only this method: push or qr.", maxLength: 20, required: false),
                      Operation.queryParameter("action", "Only this action code.", maxLength: 255, required: false),
                      Operation.queryParameter("from", "Only at or after this time (ISO-8601 UTC or milliseconds).",
                                               maxLength: 40, required: false),
                      Operation.queryParameter("to", "Only before this time (ISO-8601 UTC or milliseconds).",
                                               maxLength: 40, required: false),
                      Operation.queryParameter("limit", "Rows per page: 1 to 1000 (default 100); exports 1 to 10000 (default 10000).",
                                               maxLength: 10, required: false),
                      Operation.queryParameter("cursor", "The previous page's nextCursor (or an export's X-Next-Cursor header).",
                                               maxLength: 64, required: false),
                      Operation.queryParameter("format", "json (default), csv (a header row of the SignIn fields: at, userId, actionCode, method, factor, userAuthenticatorId, outcome, reason, ipAddress, userAgent, verificationMs, challengeId) or jsonl (one SignIn object per line).",
                                               maxLength: 10, required: false),
                  ],
                  ok: [
                      "description": "The sign-ins (csv and jsonl: the next page's cursor in the X-Next-Cursor header).",
                      "content": [
                          "application/json": ["schema": OpenAPISchemas.ref(SignInListResponse.wireName)],
                          "text/csv": ["schema": ["type": "string"]],
                          "application/jsonl": ["schema": ["type": "string"]],
                      ] as [String: Any],
                  ], errors: [400, 401]),

        // Client API: devices
        Operation(endpoint: .getPushCredential, id: "getPushCredential", tag: "Client API",
                  summary: "The push credential of a device key.", security: Operation.tenant, parameters: [Operation.publicKey],
                  ok: Operation.ok("The credential.", CredentialResponse.self), errors: [400, 401, 404]),
        Operation(endpoint: .addPushCredential, id: "addPushCredential", tag: "Client API", summary: "Enrol a push credential.",
                  security: Operation.bearer, parameters: [Operation.tenantHeader], body: (AddCredentialRequest.self, true),
                  ok: Operation.ok("The authenticator.", AddCredentialResponse.self), errors: [400, 401, 403, 409, 415]),
        Operation(endpoint: .updatePushCredential, id: "updatePushCredential", tag: "Client API",
                  summary: "Update a push token or renew the lease, signed over a nonce.", security: Operation.tenant,
                  body: (UpdateCredentialRequest.self, true),
                  ok: Operation.ok("The credential.", UpdateCredentialResponse.self), errors: [400, 401, 404, 415]),
        Operation(endpoint: .removePushCredential, id: "removePushCredential", tag: "Client API",
                  summary: "Remove a push credential, signed.", security: Operation.tenant,
                  body: (RemoveCredentialRequest.self, true),
                  ok: Operation.ok("The credential is removed.", RemoveCredentialResponse.self), errors: [400, 401, 404, 415]),
        Operation(endpoint: .signPushCredentialUpdate, id: "signPushCredentialUpdate", tag: "Client API",
                  summary: "A nonce the device signs to update its push credential.", security: Operation.tenant,
                  parameters: [Operation.publicKey], ok: Operation.ok("The nonce.", SigningMessageResponse.self),
                  errors: [400, 401, 404, 429]),
        Operation(endpoint: .signPushChallengeFetch, id: "signPushChallengeFetch", tag: "Client API",
                  summary: "A nonce the device signs to fetch its pending challenge with public custom data.",
                  security: Operation.tenant, parameters: [Operation.publicKey],
                  ok: Operation.ok("The nonce.", SigningMessageResponse.self), errors: [400, 401, 404, 429]),
        Operation(endpoint: .getPushChallenge, id: "getPushChallenge", tag: "Client API",
                  summary: "The device's pending push challenge, if any.",
                  security: [["tenantId": [], "deviceSignature": []], ["tenantId": []]], parameters: [Operation.publicKey],
                  ok: Operation.ok("The pending challenge, or challengeId null.", PushChallengeResponse.self),
                  errors: [400, 401, 404, 429]),
        Operation(endpoint: .updatePushChallenge, id: "updatePushChallenge", tag: "Client API",
                  summary: "Approve or deny a push challenge, signed (PowerAuth header when the tenant requires a factor).",
                  security: Operation.powerAuthOrTenant, body: (UpdateChallengeRequest.self, true),
                  ok: Operation.ok("Whether the answer was an approval.", UpdateChallengeResponse.self),
                  errors: [400, 401, 403, 404, 409, 410, 415, 429]),
        Operation(endpoint: .getQRCodeCredential, id: "getQRCodeCredential", tag: "Client API",
                  summary: "The device credential of a device key.", security: Operation.tenant, parameters: [Operation.publicKey],
                  ok: Operation.ok("The credential.", CredentialResponse.self), errors: [400, 401, 404]),
        Operation(endpoint: .addQRCodeCredential, id: "addQRCodeCredential", tag: "Client API",
                  summary: "Enrol a device (QR code) credential.", security: Operation.bearer, parameters: [Operation.tenantHeader],
                  body: (AddCredentialRequest.self, true), ok: Operation.ok("The authenticator.", AddCredentialResponse.self),
                  errors: [400, 401, 403, 409, 415]),
        Operation(endpoint: .removeQRCodeCredential, id: "removeQRCodeCredential", tag: "Client API",
                  summary: "Remove a device credential, signed.", security: Operation.tenant,
                  body: (RemoveCredentialRequest.self, true),
                  ok: Operation.ok("The credential is removed.", RemoveCredentialResponse.self), errors: [400, 401, 404, 415]),
        Operation(endpoint: .claimQRCodeChallenge, id: "claimQRCodeChallenge", tag: "Client API",
                  summary: "Claim a QR challenge, signed.", security: Operation.tenant, body: (ClaimChallengeRequest.self, true),
                  ok: Operation.ok("Who is asking.", ClaimChallengeResponse.self), errors: [400, 401, 404, 409, 410, 415, 429]),
        Operation(endpoint: .updateQRCodeChallenge, id: "updateQRCodeChallenge", tag: "Client API",
                  summary: "Approve or deny a claimed QR challenge, signed (PowerAuth header when the tenant requires a factor).",
                  security: Operation.powerAuthOrTenant, body: (UpdateChallengeRequest.self, true),
                  ok: Operation.ok("Whether the answer was an approval.", UpdateChallengeResponse.self),
                  errors: [400, 401, 403, 404, 409, 410, 415, 429]),
        Operation(endpoint: .createActivation, id: "createActivation", tag: "PowerAuth",
                  summary: "Create a PowerAuth activation for the token's user.", security: Operation.bearer,
                  parameters: [Operation.tenantHeader], body: (CreateActivationRequest.self, true),
                  ok: Operation.ok("The activation.", CreateActivationResponse.self), errors: [400, 401, 403, 415]),
        Operation(endpoint: .getActivationStatus, id: "getActivationStatus", tag: "PowerAuth",
                  summary: "The activation's encrypted status.", security: Operation.tenant,
                  body: (ActivationStatusRequest.self, true),
                  ok: Operation.ok("The encrypted status.", ActivationStatusResponse.self), errors: [400, 401, 404, 415, 429]),
        Operation(endpoint: .unlockVault, id: "unlockVault", tag: "PowerAuth",
                  summary: "Release the vault key (signed possession_knowledge or stronger over the body).",
                  security: [["tenantId": [], "powerAuth": []]], body: (VaultUnlockRequest.self, false),
                  ok: Operation.ok("The encrypted vault key.", VaultUnlockResponse.self), errors: [400, 401, 403, 404, 415, 429]),
        Operation(endpoint: .createAttestationChallenge, id: "createAttestationChallenge", tag: "Client API",
                  summary: "A single-use challenge (five minutes) for the device attestation an enrolment carries.",
                  security: Operation.bearer, parameters: [Operation.tenantHeader],
                  ok: Operation.ok("The challenge.", AttestationChallengeResponse.self), errors: [401, 403]),

        // Client API: the initiating page
        Operation(endpoint: .startPushChallenge, id: "startPushChallenge", tag: "Client API",
                  summary: "Start a push challenge for the token's user.", security: Operation.bearer,
                  body: (StartPushChallengeRequest.self, false),
                  ok: Operation.ok("The challenge.", StartPushChallengeResponse.self), errors: [400, 401, 403, 404, 415, 429, 502]),
        Operation(endpoint: .verifyPushChallenge, id: "verifyPushChallenge", tag: "Client API", summary: "Poll a push challenge.",
                  security: Operation.bearer, body: (VerifyPushRequest.self, true),
                  ok: Operation.ok("The challenge's state.", VerifyPushResponse.self), errors: [400, 401, 404, 415]),
        Operation(endpoint: .startQRCodeChallenge, id: "startQRCodeChallenge", tag: "Client API",
                  summary: "Start a QR challenge: for a tracked action (Bearer) or anonymous (tenant ID).",
                  security: [["trackToken": []], ["tenantId": []]], body: (StartQRChallengeRequest.self, false),
                  ok: Operation.ok("The challenge.", StartQRChallengeResponse.self), errors: [400, 401, 403, 415, 429]),
        Operation(endpoint: .verifyQRCodeChallenge, id: "verifyQRCodeChallenge", tag: "Client API",
                  summary: "Poll a QR challenge with its device code.", security: Operation.tenant,
                  body: (VerifyQRRequest.self, true),
                  ok: Operation.ok("The challenge's state.", VerifyQRResponse.self), errors: [400, 401, 404, 415]),
        Operation(endpoint: .qrCodeImageSVG, id: "qrCodeImageSVG", tag: "Client API",
                  summary: "An open QR challenge's code as SVG (for <img src>).", security: [],
                  parameters: [Operation.pathParameter("challengeId", "The QR challenge."), Operation.qrTenant],
                  ok: Operation.ok("The QR code.", "image/svg+xml", ["type": "string"]), errors: [400, 404]),
        Operation(endpoint: .qrCodeImagePNG, id: "qrCodeImagePNG", tag: "Client API",
                  summary: "An open QR challenge's code as PNG (for <img src>).", security: [],
                  parameters: [Operation.pathParameter("challengeId", "The QR challenge."), Operation.qrTenant],
                  ok: Operation.ok("The QR code.", "image/png", ["type": "string", "contentMediaType": "image/png"]),
                  errors: [400, 404]),

        // Operations
        Operation(endpoint: .health, id: "health", tag: "Operations", summary: "Whether the server and its database answer.",
                  security: [], ok: Operation.ok("Healthy.", HealthResponse.self),
                  extra: ["503": [
                      "description": "The database does not answer.",
                      "content": ["application/json": ["schema": OpenAPISchemas.ref(HealthUnavailableResponse.self)]],
                  ] as [String: Any]],
                  errors: []),
        Operation(endpoint: .healthLive, id: "healthLive", tag: "Operations",
                  summary: "Liveness: the process answers (no database check).", security: [],
                  ok: Operation.ok("Alive.", "application/json", OpenAPISchemas.inline(LivenessResponse.self)),
                  errors: []),
        Operation(endpoint: .healthReady, id: "healthReady", tag: "Operations",
                  summary: "Readiness: the store answers and has every schema step this build knows.", security: [],
                  ok: Operation.ok("Ready.", "application/json", OpenAPISchemas.inline(ReadinessResponse.self)),
                  errors: [503]),
        Operation(endpoint: .metrics, id: "metrics", tag: "Operations",
                  summary: "Prometheus metrics: 404 on the API listener unless --metrics-token is set, then Bearer.",
                  security: [["metricsToken": []]],
                  ok: Operation.ok("Prometheus text format.", "text/plain", ["type": "string"]), errors: [401, 404]),
        Operation(endpoint: .openAPIDocument, id: "openAPIDocument", tag: "Operations", summary: "This document.", security: [],
                  ok: Operation.ok("The OpenAPI 3.1 document.", "application/json",
                                   ["type": "object", "required": ["openapi", "paths"]]),
                  errors: []),
    ]

    /// `GET /v1/users/{userId}`'s answer, with the header that says whether the tenant knows the user.
    private static var userOK: [String: Any] {
        var ok = Operation.ok("The user (an unknown user is not enrolled).", UserResponse.self)
        ok["headers"] = [UserResponse.knownHeader: [
            "description": "true when the tenant knows the user (tracked, updated or enrolled), false otherwise; the body "
                + "answers both alike, as Authsignal's does.",
            "schema": ["type": "string", "enum": ["true", "false"]] as [String: Any],
        ] as [String: Any]]
        return ok
    }

    nonisolated(unsafe) static let securitySchemes: [String: Any] = [
        "secretKey": [
            "type": "http", "scheme": "basic",
            "description": "Server API: the tenant's secret key as the HTTP Basic user, with an empty password (as "
                + "Authsignal's server SDKs send it).",
        ],
        "tenantId": [
            "type": "http", "scheme": "basic",
            "description": "Client API device calls: the tenant ID as the HTTP Basic user (standard or base64url, with "
                + "or without the colon). The device then proves itself with a signature in the body or a header.",
        ],
        "trackToken": [
            "type": "http", "scheme": "bearer", "bearerFormat": "track token",
            "description": "The short-lived token a track answer returns (token), for enrolment and the initiating page.",
        ],
        "deviceSignature": [
            "type": "apiKey", "in": "header", "name": "X-Authsignal-Signature",
            "description": "Base64 DER ECDSA signature by the device key over the nonce from "
                + "POST /v1/client/user-authenticators/push/challenge/sign; without it the pending challenge is shown "
                + "without public custom data. Other device calls carry their signature in the body.",
        ],
        "powerAuth": [
            "type": "apiKey", "in": "header", "name": "X-PowerAuth-Authorization",
            "description": "A PowerAuth V3 signature header (see docs/powerauth.md), with the tenant ID as Basic user.",
        ],
        "metricsToken": [
            "type": "http", "scheme": "bearer", "bearerFormat": "metrics token",
            "description": "The token given to assentd --metrics-token.",
        ],
    ]

    static let errorDescriptions: [Int: String] = [
        400: "The request is malformed (invalid_request): a body, path or query value the server refuses.",
        401: "Missing or wrong credentials, token or signature.",
        403: "The credentials are good but may not do this.",
        404: "No such resource for this tenant.",
        405: "This path does not accept this method.",
        409: "The resource is not in a state that allows this.",
        410: "The challenge has expired or was already answered.",
        413: "The request body is too large.",
        415: "The body is not application/json.",
        429: "Rate limited; Retry-After says when to try again.",
        502: "Push delivery to every device failed.",
        503: "The database is busy or does not answer; try again.",
    ]

    /// The whole document.
    static func build() -> [String: Any] {
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            paths[operation.endpoint.path, default: [:]][operation.endpoint.method.lowercased()] = operation.json
        }
        let errorContent: [String: Any] = ["application/json": ["schema": OpenAPISchemas.ref(ErrorResponse.self)]]
        var responses: [String: Any] = ["Error": ["description": "An error, in the envelope.", "content": errorContent]]
        for (status, description) in errorDescriptions {
            responses["Error\(status)"] = ["description": description, "content": errorContent] as [String: Any]
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Assent",
                "version": "1.0.0",
                "description": "assentd: a self-hosted app verification server speaking Authsignal's wire protocol. "
                    + "The server API takes the tenant's secret key; the client API is for devices and the initiating "
                    + "page. Every error answer is JSON {error, errorCode, errorDescription}. Not listed: the QR page's "
                    + "WebSocket (GET /v1/ws-v1-challenge, subprotocol authsignal-ws) and the HTML pages (/, /web, "
                    + "/challenge). See docs/openapi.md.",
                "license": ["name": "Apache-2.0", "identifier": "Apache-2.0"],
            ] as [String: Any],
            "servers": [["url": "http://127.0.0.1:8420", "description": "assentd's default listener"]],
            "tags": ["Server API", "Tenant settings", "Timeline", "Audit", "PowerAuth", "Client API", "Operations"]
                .map { ["name": $0] },
            "paths": paths,
            "components": [
                "schemas": OpenAPISchemas.components(),
                "responses": responses,
                "securitySchemes": securitySchemes,
            ] as [String: Any],
        ]
    }

    /// A `$ref` that names no component of the document.
    struct UnresolvedReference: Error, CustomStringConvertible {
        let reference: String
        var description: String { "\(reference) names no component of the document" }
    }

    /// The document as committed: two-space indented JSON, keys sorted, a final newline. Every `$ref` must name one
    /// of its components.
    static func text() throws -> String {
        let document = build()
        try checkReferences(in: document, root: document)
        let data = try JSONSerialization.data(
            withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Throws for the first `$ref` under `value` that does not resolve in `root`.
    private static func checkReferences(in value: Any, root: [String: Any]) throws {
        if let object = value as? [String: Any] {
            if let reference = object["$ref"] as? String {
                var target: Any? = root
                for segment in reference.dropFirst(2).split(separator: "/") {
                    target = (target as? [String: Any])?[String(segment)]
                }
                guard target != nil else { throw UnresolvedReference(reference: reference) }
            }
            for member in object.values { try checkReferences(in: member, root: root) }
        } else if let array = value as? [Any] {
            for element in array { try checkReferences(in: element, root: root) }
        }
    }
}
