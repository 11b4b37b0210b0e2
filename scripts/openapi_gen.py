#!/usr/bin/env python3
"""Writes openapi/assent.json, the OpenAPI 3.1 description of every route in the endpoint catalogue
(Sources/AssentWire/Endpoints/Endpoint.swift) that is an API, from the wire types in Sources/AssentWire.

The committed JSON is what assentd serves at GET /openapi.json (embedded at build time); this script only keeps it
consistent. Run it after changing a route or a wire type, then commit both:

    python3 scripts/openapi_gen.py            # rewrite openapi/assent.json
    python3 scripts/openapi_gen.py --check    # exit 1 when the committed file differs from what it would write

OpenAPIDocumentTests compares the document's paths with the catalogue; Tests/e2e/test_openapi.py validates it and
fuzzes a live server with it.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "openapi" / "assent.json"


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def string(description=None, max_length=None, nullable=False, **extra):
    schema = {"type": ["string", "null"] if nullable else "string"}
    if max_length is not None:
        schema["maxLength"] = max_length
    if description:
        schema["description"] = description
    schema.update(extra)
    return schema


def boolean(description=None, nullable=False):
    schema = {"type": ["boolean", "null"] if nullable else "boolean"}
    if description:
        schema["description"] = description
    return schema


def integer(description=None, nullable=False, **extra):
    schema = {"type": ["integer", "null"] if nullable else "integer"}
    if description:
        schema["description"] = description
    schema.update(extra)
    return schema


def nullable(schema):
    """`schema` or null (an optional field the server may write as null)."""
    return {"anyOf": [schema, {"type": "null"}]}


def obj(description, properties, required=(), additional=True):
    schema = {"type": "object", "description": description, "properties": properties}
    if required:
        schema["required"] = list(required)
    if not additional:
        schema["additionalProperties"] = False
    return schema


TIMESTAMP = "ISO-8601, UTC with milliseconds, e.g. 2026-11-30T06:16:58.123Z"
ANY_OBJECT = {"type": "object", "description": "Free-form JSON object.", "additionalProperties": True}

# MARK: Schemas, one per wire type.

SCHEMAS = {
    "ErrorResponse": obj(
        "The body of every error answer.",
        {
            "error": string("Deprecated duplicate of errorCode, read by older clients."),
            "errorCode": string("A stable, machine-readable code such as unauthorized or invalid_request."),
            "errorDescription": string("What went wrong, for a person."),
            "hint": string("More for a person where errorDescription keeps Authsignal's wording word for word: on a "
                           "server-API 401, the Authorization header it takes and what was wrong with the one sent."),
        },
        ["error", "errorCode", "errorDescription"],
    ),
    "ActionState": {
        "type": "string",
        "description": "The state of a tracked action.",
        "enum": [
            "ALLOW", "BLOCK", "CHALLENGE_REQUIRED", "CHALLENGE_FAILED", "CHALLENGE_SUCCEEDED", "REVIEW_REQUIRED",
            "REVIEW_FAILED", "REVIEW_SUCCEEDED",
        ],
    },
    "VerificationMethod": string(
        "How a user proved an action or what an authenticator can do, e.g. PUSH, DEVICE, EMAIL_OTP, SMS.",
        examples=["PUSH", "DEVICE", "EMAIL_OTP", "SMS"],
    ),
    # Server API
    "TrackRequest": obj(
        "Track an action for a user (every field optional).",
        {
            "idempotencyKey": string("Reuse this key instead of generating one.", 200, minLength=1),
            "redirectUrl": string("Where a web flow returns to.", 2048),
            "redirectToSettings": boolean("Accepted for compatibility."),
            "ipAddress": string("The initiating request's IP address.", 64),
            "userAgent": string("The initiating request's user agent.", 1024),
            "deviceId": string("The initiating device.", 256),
            "location": string("Where the initiating request came from, shown to a device claiming a QR challenge.", 256),
            "scope": string("Scopes for the token, e.g. add:authenticators.", 512),
            "email": string("Updates the user's e-mail address.", 320),
            "phoneNumber": string("Updates the user's phone number.", 32),
            "username": string("Updates the user name.", 255),
            "locale": string("Updates the user's locale.", 35),
            "custom": ANY_OBJECT,
            "customDomain": string("Accepted for compatibility and ignored.", 255),
            "challengeId": string("Accepted for compatibility and ignored.", 200),
        },
    ),
    "TrackResponse": obj(
        "What the backend does next, and the token for the client.",
        {
            "state": ref("ActionState"),
            "idempotencyKey": string("The key that names this action from now on."),
            "url": string("A page where the user can complete the challenge."),
            "token": string("The short-lived track token for the client SDKs."),
            "isEnrolled": boolean("Whether the user has at least one authenticator."),
            "enrolledVerificationMethods": {"type": "array", "items": ref("VerificationMethod")},
            "allowedVerificationMethods": {"type": "array", "items": ref("VerificationMethod")},
            "defaultVerificationMethod": ref("VerificationMethod"),
            "ruleIds": {"type": "array", "items": {"type": "string"}},
        },
        ["state", "idempotencyKey", "url", "token", "isEnrolled", "enrolledVerificationMethods",
         "allowedVerificationMethods", "ruleIds"],
    ),
    "ActionResponse": obj(
        "One tracked action.",
        {
            "state": ref("ActionState"),
            "stateUpdatedAt": string(TIMESTAMP),
            "createdAt": string(TIMESTAMP),
            "verificationMethod": ref("VerificationMethod"),
            "actionCode": string(),
            "idempotencyKey": string(),
            "userId": string(),
            "rules": {"type": "array", "items": {"type": "string"}},
            "output": ANY_OBJECT,
        },
        ["state", "stateUpdatedAt", "createdAt", "actionCode", "idempotencyKey", "userId", "rules", "output"],
    ),
    "UpdateActionRequest": obj(
        "The backend sets an action's state.", {"state": ref("ActionState")}, ["state"]),
    "ValidateRequest": obj(
        "The backend checks a token a device or page obtained.",
        {
            "token": string("The token.", 4096),
            "userId": string("When given, the token must belong to this user.", 255),
            "action": string("When given, the token must be for this action code.", 100),
        },
        ["token"],
    ),
    "ValidateResponse": obj(
        "Whether a token proves a completed challenge. A token proves it at most once.",
        {
            "isValid": boolean(),
            "state": ref("ActionState"),
            "stateUpdatedAt": string(TIMESTAMP),
            "userId": string(),
            "action": string("The action code (the name the Python SDK reads)."),
            "actionCode": string("The action code (the name the Node SDK reads)."),
            "idempotencyKey": string(),
            "verificationMethod": ref("VerificationMethod"),
            "error": string("Why the token is not valid, when it is not."),
        },
        ["isValid"],
    ),
    "UserResponse": obj(
        "What Assent knows about a user. An unknown user is simply not enrolled.",
        {
            "userId": string(),
            "isEnrolled": boolean(),
            "email": string(),
            "emailVerified": boolean(),
            "phoneNumber": string(),
            "phoneNumberVerified": boolean(),
            "username": string(),
            "displayName": string(),
            "locale": string(),
            "custom": ANY_OBJECT,
            "enrolledVerificationMethods": {"type": "array", "items": ref("VerificationMethod")},
            "allowedVerificationMethods": {"type": "array", "items": ref("VerificationMethod")},
        },
        ["userId", "isEnrolled", "emailVerified", "phoneNumberVerified", "enrolledVerificationMethods",
         "allowedVerificationMethods"],
    ),
    "UpdateUserRequest": obj(
        "Only the fields present change; a field sent as null is cleared.",
        {
            "email": string(None, 320, nullable=True),
            "emailVerified": boolean(),
            "phoneNumber": string(None, 32, nullable=True),
            "phoneNumberVerified": boolean(),
            "username": string(None, 255, nullable=True),
            "displayName": string(None, 255, nullable=True),
            "locale": string(None, 35, nullable=True),
            "custom": nullable(ANY_OBJECT),
        },
    ),
    "DeleteUserResponse": obj(
        "The user and everything of theirs is gone.",
        {"userId": string(), "deleted": boolean("False when there was no such user.")},
        ["userId", "deleted"],
    ),
    "ResetUserPushResponse": obj(
        "The user's push throttle and fraud lock are lifted.",
        {"userId": string(), "reset": boolean()},
        ["userId", "reset"],
    ),
    "UserAuthenticator": obj(
        "One authenticator of a user.",
        {
            "userId": string(),
            "userAuthenticatorId": string(),
            "verificationMethod": ref("VerificationMethod"),
            "createdAt": string(TIMESTAMP),
            "verifiedAt": string(TIMESTAMP),
            "lastVerifiedAt": string(TIMESTAMP),
            "email": string(),
            "phoneNumber": string(),
            "devicePlatform": string("IOS, ANDROID or WEB for device credentials."),
            "deviceName": string(),
            "isDefault": boolean(),
            "erroredAt": string(TIMESTAMP),
            "errorCode": string("Why push delivery to it last failed."),
            "expiresAt": string(TIMESTAMP),
        },
        ["userId", "userAuthenticatorId", "verificationMethod", "createdAt", "isDefault"],
    ),
    "EnrollAuthenticatorRequest": obj(
        "The backend enrols a method it verified itself (e-mail, SMS, ...).",
        {
            "verificationMethod": string("The method, e.g. EMAIL_OTP.", 64),
            "email": string(None, 320),
            "phoneNumber": string(None, 32),
            "isDefault": boolean(),
        },
        ["verificationMethod"],
    ),
    "EnrollAuthenticatorResponse": obj(
        "The enrolled authenticator.", {"authenticator": ref("UserAuthenticator")}, ["authenticator"]),
    "DeleteAuthenticatorResponse": obj(
        "The authenticator is removed.",
        {"userAuthenticatorId": string(), "deleted": boolean()},
        ["userAuthenticatorId", "deleted"],
    ),
    "PushSettings": obj(
        "The tenant's push provider; credentials are never shown, only whether they are configured.",
        {
            "provider": string("webhook, apns, fcm, ..."),
            "webhookUrl": string("Where push.created goes."),
            "webhookBestEffort": boolean(),
            "apns": obj(
                "APNs without the key.",
                {"configured": boolean(), "keyId": string(), "teamId": string(), "topic": string(),
                 "environment": string("sandbox or production.")},
                ["configured"],
            ),
            "fcm": obj(
                "FCM without the service account's key.",
                {"configured": boolean(), "projectId": string(), "clientEmail": string()},
                ["configured"],
            ),
        },
        ["provider", "webhookBestEffort", "apns", "fcm"],
    ),
    "UpdatePushSettingsRequest": obj(
        "Only the fields present change. Credentials go in, never out.",
        {
            "provider": string("webhook, apns, fcm, ... (a refusal lists the allowed names).", 32),
            "webhookUrl": string("The push.created webhook URL; null goes back to the tenant's webhook URL.", 2048,
                                 nullable=True),
            "webhookBestEffort": boolean(),
            "apnsPrivateKey": string("The APNs .p8 key (PEM).", 8192),
            "apnsKeyId": string(None, 255),
            "apnsTeamId": string(None, 255),
            "apnsTopic": string(None, 255),
            "apnsEnvironment": string("sandbox or production.", 32),
            "removeApns": boolean(),
            "removeFcm": boolean(),
            "fcmServiceAccount": {
                "description": "The FCM service-account JSON file, as its text or as an object.",
                "anyOf": [{"type": "string", "maxLength": 16384}, ANY_OBJECT],
            },
        },
    ),
    "AnonymousQRSettings": obj(
        "What an anonymous QR start (tenant ID only, no track token) may do. In a PATCH only the fields present "
        "change; a GET answers both.",
        {
            "anonymousActionCodes": {
                "type": "array", "maxItems": 64,
                "items": {"type": "string", "maxLength": 100, "pattern": "^[A-Za-z0-9_.:-]{1,100}$"},
            },
            "anonymousApprovalFactor": string(
                "The PowerAuth signature type anonymous approvals need; null removes it.", 64, nullable=True),
        },
    ),
    "TenantSettings": {
        "type": "object", "additionalProperties": True,
        "description": "Every tenant setting (docs/tenant-settings.md), nulls explicit; a PATCH sends the ones it changes.",
    },
    "AuditList": obj(
        "A page of the tenant's audit log, oldest first.",
        {
            "entries": {"type": "array", "items": obj(
                "One audit entry: nothing secret (no key, token, signature or address).",
                {
                    "sequence": integer("Its place in the tenant's chain (1, 2, 3, ...)."),
                    "at": string(TIMESTAMP),
                    "kind": string("What happened, e.g. tenant.secret_rotated."),
                    "actor": string("Who did it: cli, secret-key, device or system."),
                    "subject": string("What it was done to (a user, authenticator or activation id).", nullable=True),
                    "details": {"type": "object", "additionalProperties": {"type": "string"}},
                    "mac": string("HMAC-SHA256 over the previous entry's MAC and this entry's content (hex)."),
                },
                ["sequence", "at", "kind", "actor", "details", "mac"],
            )},
            "nextCursor": string("Pass as cursor to read the next page; absent on the last page.", nullable=True),
        },
        ["entries"],
    ),
    "ChallengeTimeline": obj(
        "A push challenge's queued notifications and every recorded event.",
        {
            "challengeId": string(),
            "deliveries": {"type": "array", "items": obj(
                "One notification queued for one device.",
                {
                    "userAuthenticatorId": string(),
                    "provider": string("apns, fcm or webhook."),
                    "state": string("queued, delivered, stale_token, failed or expired."),
                    "attempts": integer(),
                    "lastError": string(),
                },
                ["userAuthenticatorId", "provider", "state", "attempts"],
            )},
            "timeline": {"type": "array", "items": obj(
                "One entry, oldest first: challenge.started, then what the server recorded (push.queued, "
                "push.delivered, push.failed, webhook.delivered, ...), then challenge.claimed, challenge.approved, "
                "challenge.denied or challenge.expired.",
                {
                    "event": string(),
                    "at": string(TIMESTAMP),
                    "userAuthenticatorId": string(),
                    "provider": string(),
                    "attempt": integer(),
                    "status": integer(),
                    "detail": string(),
                },
                ["event", "at"],
            )},
        },
        ["challengeId", "deliveries", "timeline"],
    ),
    # PowerAuth, server side
    "Activation": obj(
        "A PowerAuth activation as the server API shows it.",
        {
            "activationId": string(),
            "userId": string(),
            "activationName": string(),
            "activationStatus": string("CREATED, PENDING_COMMIT, ACTIVE, BLOCKED or REMOVED."),
            "blockedReason": string("MAX_FAILED_ATTEMPTS or BLOCKED_BY_BACKEND."),
            "failedAttempts": integer(),
            "maxFailedAttempts": integer(),
            "activationFingerprint": string(),
            "createdAt": string(TIMESTAMP),
            "lastUsedAt": string(TIMESTAMP),
        },
        ["activationId", "userId", "activationStatus", "failedAttempts", "maxFailedAttempts",
         "activationFingerprint", "createdAt"],
    ),
    "ActivationList": obj(
        "A user's activations, oldest first (removed ones included).",
        {"activations": {"type": "array", "items": ref("Activation")}},
        ["activations"],
    ),
    "VerifySignatureRequest": obj(
        "Whether a request the backend received from the app carries a valid PowerAuth signature.",
        {
            "method": string("The HTTP method the app used.", 16),
            "uriId": string("The logical URI id the app signed.", 2048),
            "body": string("Base64 of the raw body bytes the app signed.", 2000000),
            "query": string("For a GET, instead of body: the raw query string as received.", 16384),
            "authorization": string("The X-PowerAuth-Authorization header value as received.", 2048),
        },
        ["method", "uriId", "authorization"],
    ),
    "VerifySignatureResponse": obj(
        "The verification's result (always 200 when the request itself was well-formed).",
        {
            "valid": boolean(),
            "activationId": string(),
            "userId": string(),
            "activationStatus": string(),
            "signatureType": string(),
            "remainingAttempts": integer(),
        },
        ["valid", "activationId", "activationStatus", "signatureType", "remainingAttempts"],
    ),
    # Client API: devices
    "AddCredentialRequest": obj(
        "Enrol a device key.",
        {
            "publicKey": string("Base64 of the key's X.509 SubjectPublicKeyInfo DER.", 512),
            "deviceName": string(None, 255),
            "devicePlatform": string("ios or android.", 32),
            "pushToken": string("APNs device token or FCM registration token (push credentials).", 4096),
            "userPresenceRequired": boolean(),
            "userAuthenticationRequired": boolean(),
            "timeout": integer("Seconds the key stays usable after one authentication.", minimum=0, maximum=86400),
            "authorizationType": string(None, 64),
            "signatureScheme": {"type": "string", "enum": ["bound", "compatible"]},
        },
        ["publicKey"],
    ),
    "AddCredentialResponse": obj(
        "The new (or re-enrolled) authenticator.",
        {"userAuthenticatorId": string(), "userId": string(), "verifiedAt": string(TIMESTAMP),
         "expiresAt": string(TIMESTAMP)},
        ["userAuthenticatorId", "userId", "verifiedAt"],
    ),
    "CredentialResponse": obj(
        "The credential as the server knows it.",
        {"userAuthenticatorId": string(), "verifiedAt": string(TIMESTAMP), "userId": string(),
         "lastVerifiedAt": string(TIMESTAMP), "expiresAt": string(TIMESTAMP)},
        ["userAuthenticatorId", "verifiedAt", "userId"],
    ),
    "RemoveCredentialRequest": obj(
        "Signed with the time-window message, or by a bound credential with the removal message.",
        {"publicKey": string(None, 512), "signature": string("Base64 DER ECDSA signature.", 256)},
        ["publicKey", "signature"],
    ),
    "RemoveCredentialResponse": obj(
        "The authenticator removed.", {"removedAuthenticatorId": string()}),
    "SigningMessage": obj(
        "A single-use server nonce to sign.",
        {"challengeId": string("Names the nonce (.../push/sign)."), "message": string("The message to sign.")},
    ),
    "UpdateCredentialRequest": obj(
        "A new push token and/or a renewed lease, proved by signing the nonce from .../push/sign.",
        {
            "challengeId": string("The nonce's id.", 200),
            "publicKey": string(None, 512),
            "signature": string(None, 256),
            "pushToken": string(None, 4096),
            "resetExpiry": boolean(),
        },
        ["challengeId", "publicKey", "signature"],
    ),
    "UpdateCredentialResponse": obj(
        "The credential after the update.",
        {"userAuthenticatorId": string(), "userId": string(), "lastVerifiedAt": string(TIMESTAMP),
         "pushToken": string(), "expiresAt": string(TIMESTAMP)},
        ["userAuthenticatorId", "userId", "lastVerifiedAt"],
    ),
    "ChallengeUser": obj("Public custom data of the user.", {"custom": ANY_OBJECT}),
    "PushChallenge": obj(
        "The pending challenge, or none (challengeId null).",
        {
            "userAuthenticatorId": string(),
            "challengeId": string(nullable=True),
            "userId": string(nullable=True),
            "actionCode": string(),
            "idempotencyKey": string(),
            "deviceId": string(),
            "userAgent": string(),
            "ipAddress": string(),
            "expiresAt": integer("Seconds since the epoch."),
            "custom": ANY_OBJECT,
            "user": ref("ChallengeUser"),
            "verificationCodeRequired": boolean(),
        },
        ["userAuthenticatorId", "challengeId", "userId"],
    ),
    "UpdateChallengeRequest": obj(
        "Approve or deny, signed over the challenge id.",
        {
            "challengeId": string(None, 200),
            "publicKey": string(None, 512),
            "approved": boolean(),
            "signature": string("Base64 DER ECDSA signature over the challenge id.", 256),
            "verificationCode": string(None, 16, nullable=True),
            "boundSignature": string(None, 256),
            "reportFraud": boolean(),
        },
        ["challengeId", "publicKey", "approved", "signature"],
    ),
    "UpdateChallengeResponse": obj("The answer to an update challenge.", {"isVerified": boolean()}, ["isVerified"]),
    "ClaimChallengeRequest": obj(
        "Claim a QR challenge, signed over the challenge id.",
        {"challengeId": string(None, 200), "publicKey": string(None, 512), "signature": string(None, 256)},
        ["challengeId", "publicKey", "signature"],
    ),
    "ClaimChallengeResponse": obj(
        "What the claiming device learns about who is asking.",
        {
            "success": boolean(),
            "ipAddress": string(),
            "userAgent": string(),
            "actionCode": string(),
            "idempotencyKey": string(),
            "custom": ANY_OBJECT,
            "user": ref("ChallengeUser"),
            "location": string(nullable=True),
        },
        ["success", "location"],
    ),
    "CreateActivationRequest": obj(
        "Create a PowerAuth activation for the token's user.",
        {"devicePublicKey": string("Base64 of the device's P-256 public key, SEC1 uncompressed.", 256),
         "activationName": string(None, 255)},
        ["devicePublicKey"],
    ),
    "CreateActivationResponse": obj(
        "The new activation (see docs/powerauth.md).",
        {
            "activationId": string(),
            "serverPublicKey": string(),
            "ctrData": string(),
            "activationSignature": string(),
            "activationFingerprint": string(),
            "applicationKey": string(),
            "applicationSecret": string(),
            "activationStatus": string("ACTIVE, or PENDING_COMMIT."),
        },
        ["activationId", "serverPublicKey", "ctrData", "activationSignature", "activationFingerprint",
         "applicationKey", "applicationSecret", "activationStatus"],
    ),
    "ActivationStatusRequest": obj(
        "The device asks its activation's status.",
        {"activationId": string(None, 64), "challenge": string("Base64 of 16 random bytes.", 64)},
        ["activationId", "challenge"],
    ),
    "ActivationStatusResponse": obj(
        "The 32-byte status blob, encrypted under KEY_TRANSPORT.",
        {"encryptedStatusBlob": string(), "nonce": string()},
        ["encryptedStatusBlob", "nonce"],
    ),
    "VaultUnlockRequest": obj(
        "Why the vault is unlocked (absent: ADD_BIOMETRY).",
        {"reason": {"type": "string",
                    "enum": ["ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY", "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE"]}},
    ),
    "VaultUnlockResponse": obj(
        "The vault key, encrypted under KEY_TRANSPORT.",
        {"encryptedVaultEncryptionKey": string()},
        ["encryptedVaultEncryptionKey"],
    ),
    # Client API: the initiating page
    "StartPushChallengeRequest": obj(
        "Start a push challenge for the token's user.",
        {"action": string("The action code (the token's when absent).", 100),
         "userAuthenticatorId": string("Target one authenticator.", 200)},
    ),
    "StartPushChallengeResponse": obj(
        "The new challenge.",
        {
            "challengeId": string(),
            "expiresAt": string(TIMESTAMP),
            "verificationCode": string("The code the user must enter on the device, when number matching is on."),
            "deliveryResults": {"type": "array", "items": obj(
                "One targeted authenticator's delivery result.",
                {"userAuthenticatorId": string(), "errorCode": string()},
                ["userAuthenticatorId"],
            )},
        },
        ["challengeId"],
    ),
    "VerifyPushRequest": obj("Poll a push challenge.", {"challengeId": string(None, 200)}, ["challengeId"]),
    "VerifyPushResponse": obj(
        "The state of a push challenge as the initiating page sees it.",
        {"isVerified": boolean(), "isConsumed": boolean(), "accessToken": string("For POST /v1/validate.")},
        ["isVerified", "isConsumed"],
    ),
    "StartQRChallengeRequest": obj(
        "Start a QR challenge: anonymous (tenant Basic, with action) or for a tracked action (Bearer track token).",
        {"action": string("The action code (anonymous challenges).", 100, pattern="^[A-Za-z0-9_.:-]{1,100}$"),
         "custom": ANY_OBJECT},
    ),
    "StartQRChallengeResponse": obj(
        "The new QR challenge.",
        {
            "challengeId": string(),
            "expiresAt": string(TIMESTAMP),
            "deviceCode": string("The poll secret: only its holder learns the result."),
            "qrPayload": string("The text to render as the QR code."),
        },
        ["challengeId", "expiresAt"],
    ),
    "VerifyQRRequest": obj(
        "Poll a QR challenge.",
        {"challengeId": string(None, 200), "deviceCode": string(None, 200)},
        ["challengeId", "deviceCode"],
    ),
    "VerifyQRResponse": obj(
        "The state of a QR challenge for the page that shows it.",
        {"isClaimed": boolean(), "isConsumed": boolean(), "isVerified": boolean(),
         "accessToken": string("For POST /v1/validate.")},
        ["isClaimed", "isConsumed", "isVerified"],
    ),
    # Operations
    "Health": obj(
        "The server and its database answer.",
        {"status": string(), "database": string(), "databaseKind": string("sqlite or postgresql."),
         "databaseLatencyMs": {"type": "number"}},
        ["status", "database", "databaseKind"],
    ),
    "HealthUnavailable": {
        "description": "The database does not answer: the error envelope with the health fields.",
        "allOf": [ref("ErrorResponse"), obj(
            "Health fields.", {"status": string(), "database": string(), "databaseKind": string()},
            ["status", "database", "databaseKind"])],
    },
}

SECURITY_SCHEMES = {
    "secretKey": {
        "type": "http", "scheme": "basic",
        "description": "Server API: the tenant's secret key as the HTTP Basic user, with an empty password (as "
                       "Authsignal's server SDKs send it).",
    },
    "tenantId": {
        "type": "http", "scheme": "basic",
        "description": "Client API device calls: the tenant ID as the HTTP Basic user (standard or base64url, with "
                       "or without the colon). The device then proves itself with a signature in the body or a "
                       "header.",
    },
    "trackToken": {
        "type": "http", "scheme": "bearer", "bearerFormat": "track token",
        "description": "The short-lived token a track answer returns (token), for enrolment and the initiating page.",
    },
    "deviceSignature": {
        "type": "apiKey", "in": "header", "name": "X-Authsignal-Signature",
        "description": "Base64 DER ECDSA signature by the device key over the nonce from "
                       "POST /v1/client/user-authenticators/push/challenge/sign; without it the pending challenge is "
                       "shown without public custom data. Other device calls carry their signature in the body.",
    },
    "powerAuth": {
        "type": "apiKey", "in": "header", "name": "X-PowerAuth-Authorization",
        "description": "A PowerAuth V3 signature header (see docs/powerauth.md), with the tenant ID as Basic user.",
    },
    "metricsToken": {
        "type": "http", "scheme": "bearer", "bearerFormat": "metrics token",
        "description": "The token given to assentd --metrics-token.",
    },
}

ERROR_DESCRIPTIONS = {
    "400": "The request is malformed (invalid_request): a body, path or query value the server refuses.",
    "401": "Missing or wrong credentials, token or signature.",
    "403": "The credentials are good but may not do this.",
    "404": "No such resource for this tenant.",
    "405": "This path does not accept this method.",
    "409": "The resource is not in a state that allows this.",
    "410": "The challenge has expired or was already answered.",
    "413": "The request body is too large.",
    "415": "The body is not application/json.",
    "429": "Rate limited; Retry-After says when to try again.",
    "502": "Push delivery to every device failed.",
    "503": "The database is busy or does not answer; try again.",
}


def error_response(status):
    return {"$ref": f"#/components/responses/Error{status}"}


def json_body(schema_name, required=True):
    return {"required": required, "content": {"application/json": {"schema": ref(schema_name)}}}


def ok(description, schema_name):
    return {"description": description, "content": {"application/json": {"schema": ref(schema_name)}}}


def path_param(name, description, max_length=200, pattern=None):
    schema = {"type": "string", "minLength": 1, "maxLength": max_length}
    if pattern:
        schema["pattern"] = pattern
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


def query_param(name, description, max_length, required=True):
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": {"type": "string", "minLength": 1, "maxLength": max_length}}


USER_ID = path_param("userId", "The user: 1 to 255 bytes without control characters.", 255)
ACTION = path_param("action", "The action code: letters, digits and _ - . :", 100, "^[A-Za-z0-9_.:-]{1,100}$")
PUBLIC_KEY = query_param("publicKey", "The device credential's public key (SPKI DER, Base64).", 1024)

TENANT_HEADER = {
    "name": "X-Authsignal-Tenant-ID", "in": "header", "required": False,
    "description": "The tenant the device is configured for (the official SDKs send it): when present it must be the "
                   "track token's tenant, else 403 tenant_mismatch and nothing is stored.",
    "schema": {"type": "string", "maxLength": 128},
}

SERVER = [{"secretKey": []}]
TENANT = [{"tenantId": []}]
BEARER = [{"trackToken": []}]

# MARK: Operations, keyed by the catalogue's "METHOD /path" (Endpoint.swift).

OPERATIONS = {
    # Server API
    "POST /v1/users/{userId}/actions/{action}": dict(
        id="track", tag="Server API", summary="Track an action for a user.", security=SERVER,
        parameters=[USER_ID, ACTION], body=json_body("TrackRequest", False),
        ok=ok("The action's state and the track token.", "TrackResponse"), errors=[400, 401, 415]),
    "GET /v1/users/{userId}/actions/{action}/{idempotencyKey}": dict(
        id="getAction", tag="Server API", summary="Read a tracked action.", security=SERVER,
        parameters=[USER_ID, ACTION, path_param("idempotencyKey", "The action's idempotency key.")],
        ok=ok("The action.", "ActionResponse"), errors=[400, 401, 404]),
    "PATCH /v1/users/{userId}/actions/{action}/{idempotencyKey}": dict(
        id="updateAction", tag="Server API", summary="Set a tracked action's state.", security=SERVER,
        parameters=[USER_ID, ACTION, path_param("idempotencyKey", "The action's idempotency key.")],
        body=json_body("UpdateActionRequest"), ok=ok("The action.", "ActionResponse"),
        errors=[400, 401, 404, 409, 415]),
    "POST /v1/validate": dict(
        id="validate", tag="Server API", summary="Validate a token a device or page obtained.", security=SERVER,
        body=json_body("ValidateRequest"), ok=ok("Whether the token proves a completed challenge.", "ValidateResponse"),
        errors=[400, 401, 415]),
    "GET /v1/users/{userId}": dict(
        id="getUser", tag="Server API", summary="Read a user.", security=SERVER, parameters=[USER_ID],
        ok={**ok("The user (an unknown user is not enrolled).", "UserResponse"), "headers": {"Assent-User-Known": {
            "description": "true when the tenant knows the user (tracked, updated or enrolled), false otherwise; the "
                           "body answers both alike, as Authsignal's does.",
            "schema": {"type": "string", "enum": ["true", "false"]}}}},
        errors=[400, 401]),
    "PATCH /v1/users/{userId}": dict(
        id="updateUser", tag="Server API", summary="Update a user's attributes.", security=SERVER,
        parameters=[USER_ID], body=json_body("UpdateUserRequest", False), ok=ok("The user.", "UserResponse"),
        errors=[400, 401, 415]),
    "POST /v1/users/{userId}": dict(
        id="updateUserByPost", tag="Server API",
        summary="Update a user's attributes, as PATCH does (Authsignal's Python SDK 3.0.0 and 2.0.7 send POST).",
        security=SERVER, parameters=[USER_ID], body=json_body("UpdateUserRequest", False),
        ok=ok("The user.", "UserResponse"), errors=[400, 401, 415]),
    "DELETE /v1/users/{userId}": dict(
        id="deleteUser", tag="Server API", summary="Delete a user and their authenticators.", security=SERVER,
        parameters=[USER_ID], ok=ok("Whether a user was deleted.", "DeleteUserResponse"), errors=[400, 401]),
    "POST /v1/users/{userId}/push/reset": dict(
        id="resetUserPush", tag="Server API", summary="End a user's push throttle and fraud lock.", security=SERVER,
        parameters=[USER_ID], ok=ok("The lock is lifted.", "ResetUserPushResponse"), errors=[400, 401]),
    "GET /v1/users/{userId}/authenticators": dict(
        id="getAuthenticators", tag="Server API", summary="List a user's authenticators.", security=SERVER,
        parameters=[USER_ID],
        ok={"description": "The authenticators.", "content": {"application/json": {
            "schema": {"type": "array", "items": ref("UserAuthenticator")}}}},
        errors=[400, 401]),
    "POST /v1/users/{userId}/authenticators": dict(
        id="enrollAuthenticator", tag="Server API", summary="Enrol a method the backend verified itself.",
        security=SERVER, parameters=[USER_ID], body=json_body("EnrollAuthenticatorRequest"),
        ok=ok("The authenticator.", "EnrollAuthenticatorResponse"), errors=[400, 401, 409, 415]),
    "DELETE /v1/users/{userId}/authenticators/{userAuthenticatorId}": dict(
        id="deleteAuthenticator", tag="Server API", summary="Remove one of a user's authenticators.",
        security=SERVER, parameters=[USER_ID, path_param("userAuthenticatorId", "The authenticator.")],
        ok=ok("The authenticator is removed.", "DeleteAuthenticatorResponse"), errors=[400, 401, 404]),
    "GET /v1/tenant/push": dict(
        id="getPushSettings", tag="Tenant settings", summary="The tenant's push provider and settings.",
        security=SERVER, ok=ok("The settings, without credentials.", "PushSettings"), errors=[401]),
    "PATCH /v1/tenant/push": dict(
        id="updatePushSettings", tag="Tenant settings", summary="Change the push provider and credentials.",
        security=SERVER, body=json_body("UpdatePushSettingsRequest", False),
        ok=ok("The settings, without credentials.", "PushSettings"), errors=[400, 401, 415]),
    "GET /v1/tenant/qr-code": dict(
        id="getAnonymousQRSettings", tag="Tenant settings", summary="What anonymous QR starts may do.",
        security=SERVER, ok=ok("The settings.", "AnonymousQRSettings"), errors=[401]),
    "PATCH /v1/tenant/qr-code": dict(
        id="updateAnonymousQRSettings", tag="Tenant settings", summary="Change what anonymous QR starts may do.",
        security=SERVER, body=json_body("AnonymousQRSettings", False), ok=ok("The settings.", "AnonymousQRSettings"),
        errors=[400, 401, 415]),
    "GET /v1/tenant/settings": dict(
        id="getTenantSettings", tag="Tenant settings", summary="Every tenant setting.",
        security=SERVER, ok=ok("The settings.", "TenantSettings"), errors=[401]),
    "PATCH /v1/tenant/settings": dict(
        id="updateTenantSettings", tag="Tenant settings", summary="Change tenant settings.",
        security=SERVER, body=json_body("TenantSettings", False), ok=ok("The settings.", "TenantSettings"),
        errors=[400, 401, 415]),
    "GET /v1/audit": dict(
        id="getAuditLog", tag="Audit", summary="A page of the tenant's audit log.", security=SERVER,
        parameters=[
            query_param("since", "Only entries at or after this time (ISO-8601 UTC or milliseconds).", 40, False),
            query_param("kind", "Only entries of this kind, e.g. credential.enrolled.", 64, False),
            query_param("limit", "Entries per page, 1 to 1000 (default 100).", 10, False),
            query_param("cursor", "The previous page's nextCursor.", 20, False),
        ],
        ok=ok("The entries.", "AuditList"), errors=[400, 401]),
    "GET /v1/challenges/{challengeId}/timeline": dict(
        id="getChallengeTimeline", tag="Timeline", summary="A challenge's timeline (start, deliveries, answer or expiry), any kind, any push provider.",
        security=SERVER, parameters=[path_param("challengeId", "The push challenge.")],
        ok=ok("The timeline.", "ChallengeTimeline"), errors=[400, 401, 404]),
    "GET /v1/activations/{activationId}": dict(
        id="getActivation", tag="PowerAuth", summary="Read a PowerAuth activation.", security=SERVER,
        parameters=[path_param("activationId", "The activation.")], ok=ok("The activation.", "Activation"),
        errors=[400, 401, 404]),
    "GET /v1/users/{userId}/activations": dict(
        id="getActivations", tag="PowerAuth", summary="List a user's PowerAuth activations.", security=SERVER,
        parameters=[USER_ID], ok=ok("The activations.", "ActivationList"), errors=[400, 401]),
    "POST /v1/activations/{activationId}/commit": dict(
        id="commitActivation", tag="PowerAuth", summary="Commit a PENDING_COMMIT activation.", security=SERVER,
        parameters=[path_param("activationId", "The activation.")], ok=ok("The activation.", "Activation"),
        errors=[400, 401, 404, 409]),
    "POST /v1/activations/{activationId}/block": dict(
        id="blockActivation", tag="PowerAuth", summary="Block an activation.", security=SERVER,
        parameters=[path_param("activationId", "The activation.")], ok=ok("The activation.", "Activation"),
        errors=[400, 401, 404, 409]),
    "POST /v1/activations/{activationId}/unblock": dict(
        id="unblockActivation", tag="PowerAuth", summary="Unblock an activation.", security=SERVER,
        parameters=[path_param("activationId", "The activation.")], ok=ok("The activation.", "Activation"),
        errors=[400, 401, 404, 409]),
    "DELETE /v1/activations/{activationId}": dict(
        id="removeActivation", tag="PowerAuth", summary="Remove an activation.", security=SERVER,
        parameters=[path_param("activationId", "The activation.")], ok=ok("The activation.", "Activation"),
        errors=[400, 401, 404, 409]),
    "POST /v1/signatures/verify": dict(
        id="verifySignature", tag="PowerAuth", summary="Verify a PowerAuth-signed request the backend received.",
        security=SERVER, body=json_body("VerifySignatureRequest"),
        ok=ok("The verification's result.", "VerifySignatureResponse"), errors=[400, 401, 415]),
    # Client API: devices
    "GET /v1/client/user-authenticators/push": dict(
        id="getPushCredential", tag="Client API", summary="The push credential of a device key.", security=TENANT,
        parameters=[PUBLIC_KEY], ok=ok("The credential.", "CredentialResponse"), errors=[400, 401, 404]),
    "POST /v1/client/user-authenticators/push": dict(
        id="addPushCredential", tag="Client API", summary="Enrol a push credential.", security=BEARER, parameters=[TENANT_HEADER],
        body=json_body("AddCredentialRequest"), ok=ok("The authenticator.", "AddCredentialResponse"),
        errors=[400, 401, 403, 409, 415]),
    "PATCH /v1/client/user-authenticators/push": dict(
        id="updatePushCredential", tag="Client API",
        summary="Update a push token or renew the lease, signed over a nonce.", security=TENANT,
        body=json_body("UpdateCredentialRequest"), ok=ok("The credential.", "UpdateCredentialResponse"),
        errors=[400, 401, 404, 415]),
    "POST /v1/client/user-authenticators/push/remove": dict(
        id="removePushCredential", tag="Client API", summary="Remove a push credential, signed.", security=TENANT,
        body=json_body("RemoveCredentialRequest"), ok=ok("The credential is removed.", "RemoveCredentialResponse"),
        errors=[400, 401, 404, 415]),
    "POST /v1/client/user-authenticators/push/sign": dict(
        id="signPushCredentialUpdate", tag="Client API",
        summary="A nonce the device signs to update its push credential.", security=TENANT, parameters=[PUBLIC_KEY],
        ok=ok("The nonce.", "SigningMessage"), errors=[400, 401, 404, 429]),
    "POST /v1/client/user-authenticators/push/challenge/sign": dict(
        id="signPushChallengeFetch", tag="Client API",
        summary="A nonce the device signs to fetch its pending challenge with public custom data.",
        security=TENANT, parameters=[PUBLIC_KEY], ok=ok("The nonce.", "SigningMessage"), errors=[400, 401, 404, 429]),
    "GET /v1/client/user-authenticators/push/challenge": dict(
        id="getPushChallenge", tag="Client API", summary="The device's pending push challenge, if any.",
        security=[{"tenantId": [], "deviceSignature": []}, {"tenantId": []}], parameters=[PUBLIC_KEY],
        ok=ok("The pending challenge, or challengeId null.", "PushChallenge"), errors=[400, 401, 404, 429]),
    "POST /v1/client/user-authenticators/push/challenge": dict(
        id="updatePushChallenge", tag="Client API",
        summary="Approve or deny a push challenge, signed (PowerAuth header when the tenant requires a factor).",
        security=[{"tenantId": [], "powerAuth": []}, {"tenantId": []}], body=json_body("UpdateChallengeRequest"),
        ok=ok("Whether the answer was an approval.", "UpdateChallengeResponse"),
        errors=[400, 401, 403, 404, 409, 410, 415, 429]),
    "GET /v1/client/user-authenticators/qr-code": dict(
        id="getQRCodeCredential", tag="Client API", summary="The device credential of a device key.",
        security=TENANT, parameters=[PUBLIC_KEY], ok=ok("The credential.", "CredentialResponse"),
        errors=[400, 401, 404]),
    "POST /v1/client/user-authenticators/qr-code": dict(
        id="addQRCodeCredential", tag="Client API", summary="Enrol a device (QR code) credential.", security=BEARER, parameters=[TENANT_HEADER],
        body=json_body("AddCredentialRequest"), ok=ok("The authenticator.", "AddCredentialResponse"),
        errors=[400, 401, 403, 409, 415]),
    "POST /v1/client/user-authenticators/qr-code/remove": dict(
        id="removeQRCodeCredential", tag="Client API", summary="Remove a device credential, signed.",
        security=TENANT, body=json_body("RemoveCredentialRequest"),
        ok=ok("The credential is removed.", "RemoveCredentialResponse"), errors=[400, 401, 404, 415]),
    "POST /v1/client/user-authenticators/qr-code/challenge/claim": dict(
        id="claimQRCodeChallenge", tag="Client API", summary="Claim a QR challenge, signed.", security=TENANT,
        body=json_body("ClaimChallengeRequest"), ok=ok("Who is asking.", "ClaimChallengeResponse"),
        errors=[400, 401, 404, 409, 410, 415, 429]),
    "POST /v1/client/user-authenticators/qr-code/challenge": dict(
        id="updateQRCodeChallenge", tag="Client API",
        summary="Approve or deny a claimed QR challenge, signed (PowerAuth header when the tenant requires a factor).",
        security=[{"tenantId": [], "powerAuth": []}, {"tenantId": []}], body=json_body("UpdateChallengeRequest"),
        ok=ok("Whether the answer was an approval.", "UpdateChallengeResponse"),
        errors=[400, 401, 403, 404, 409, 410, 415, 429]),
    "POST /v1/client/activations": dict(
        id="createActivation", tag="PowerAuth", summary="Create a PowerAuth activation for the token's user.",
        security=BEARER, parameters=[TENANT_HEADER], body=json_body("CreateActivationRequest"),
        ok=ok("The activation.", "CreateActivationResponse"), errors=[400, 401, 403, 415]),
    "POST /v1/client/activations/status": dict(
        id="getActivationStatus", tag="PowerAuth", summary="The activation's encrypted status.", security=TENANT,
        body=json_body("ActivationStatusRequest"), ok=ok("The encrypted status.", "ActivationStatusResponse"),
        errors=[400, 401, 404, 415, 429]),
    "POST /v1/client/vault/unlock": dict(
        id="unlockVault", tag="PowerAuth",
        summary="Release the vault key (signed possession_knowledge or stronger over the body).",
        security=[{"tenantId": [], "powerAuth": []}], body=json_body("VaultUnlockRequest", False),
        ok=ok("The encrypted vault key.", "VaultUnlockResponse"), errors=[400, 401, 403, 404, 415, 429]),
    # Client API: the initiating page
    "POST /v1/client/challenge/push": dict(
        id="startPushChallenge", tag="Client API", summary="Start a push challenge for the token's user.",
        security=BEARER, body=json_body("StartPushChallengeRequest", False),
        ok=ok("The challenge.", "StartPushChallengeResponse"), errors=[400, 401, 403, 404, 415, 429, 502]),
    "POST /v1/client/verify/push": dict(
        id="verifyPushChallenge", tag="Client API", summary="Poll a push challenge.", security=BEARER,
        body=json_body("VerifyPushRequest"), ok=ok("The challenge's state.", "VerifyPushResponse"),
        errors=[400, 401, 404, 415]),
    "POST /v1/client/challenge/qr-code": dict(
        id="startQRCodeChallenge", tag="Client API",
        summary="Start a QR challenge: for a tracked action (Bearer) or anonymous (tenant ID).",
        security=[{"trackToken": []}, {"tenantId": []}], body=json_body("StartQRChallengeRequest", False),
        ok=ok("The challenge.", "StartQRChallengeResponse"), errors=[400, 401, 403, 415, 429]),
    "POST /v1/client/verify/qr-code": dict(
        id="verifyQRCodeChallenge", tag="Client API", summary="Poll a QR challenge with its device code.",
        security=TENANT, body=json_body("VerifyQRRequest"), ok=ok("The challenge's state.", "VerifyQRResponse"),
        errors=[400, 401, 404, 415]),
    "GET /v1/client/challenge/qr-code/{challengeId}/image.svg": dict(
        id="qrCodeImageSVG", tag="Client API", summary="An open QR challenge's code as SVG (for <img src>).",
        security=[], parameters=[path_param("challengeId", "The QR challenge."),
                                 query_param("tenant", "The tenant ID.", 128)],
        ok={"description": "The QR code.", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
        errors=[400, 404]),
    "GET /v1/client/challenge/qr-code/{challengeId}/image.png": dict(
        id="qrCodeImagePNG", tag="Client API", summary="An open QR challenge's code as PNG (for <img src>).",
        security=[], parameters=[path_param("challengeId", "The QR challenge."),
                                 query_param("tenant", "The tenant ID.", 128)],
        ok={"description": "The QR code.", "content": {"image/png": {"schema": {"type": "string",
                                                                                "contentMediaType": "image/png"}}}},
        errors=[400, 404]),
    # Operations
    "GET /healthz": dict(
        id="health", tag="Operations", summary="Whether the server and its database answer.", security=[],
        ok=ok("Healthy.", "Health"),
        extra={"503": {"description": "The database does not answer.",
                       "content": {"application/json": {"schema": ref("HealthUnavailable")}}}},
        errors=[]),
    "GET /healthz/live": dict(
        id="healthLive", tag="Operations", summary="Liveness: the process answers (no database check).",
        security=[], ok={"description": "Alive.", "content": {"application/json": {"schema": obj(
            "Alive.", {"status": string()}, ["status"])}}},
        errors=[]),
    "GET /healthz/ready": dict(
        id="healthReady", tag="Operations",
        summary="Readiness: the store answers and has every schema step this build knows.", security=[],
        ok={"description": "Ready.", "content": {"application/json": {"schema": obj(
            "Ready.", {"status": string(), "databaseKind": string()}, ["status", "databaseKind"])}}},
        errors=[503]),
    "GET /metrics": dict(
        id="metrics", tag="Operations",
        summary="Prometheus metrics: 404 on the API listener unless --metrics-token is set, then Bearer.",
        security=[{"metricsToken": []}],
        ok={"description": "Prometheus text format.",
            "content": {"text/plain": {"schema": {"type": "string"}}}},
        errors=[401, 404]),
    "GET /openapi.json": dict(
        id="openAPIDocument", tag="Operations", summary="This document.", security=[],
        ok={"description": "The OpenAPI 3.1 document.",
            "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "paths"]}}}},
        errors=[]),
}


def build():
    paths = {}
    for key, op in OPERATIONS.items():
        method, path = key.split(" ", 1)
        responses = {"200": op["ok"]}
        responses.update(op.get("extra", {}))
        for status in op["errors"]:
            responses[str(status)] = error_response(status)
        # Every operation may also meet the HTTP layer's and the store's refusals, all in the envelope.
        responses["default"] = {"$ref": "#/components/responses/Error"}
        operation = {
            "operationId": op["id"],
            "tags": [op["tag"]],
            "summary": op["summary"],
            "security": op["security"],
            "responses": responses,
        }
        if op.get("parameters"):
            operation["parameters"] = op["parameters"]
        if op.get("body"):
            operation["requestBody"] = op["body"]
        paths.setdefault(path, {})[method.lower()] = operation

    error_content = {"application/json": {"schema": ref("ErrorResponse")}}
    responses = {"Error": {"description": "An error, in the envelope.", "content": error_content}}
    for status, description in ERROR_DESCRIPTIONS.items():
        responses[f"Error{status}"] = {"description": description, "content": error_content}

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Assent",
            "version": "1.0.0",
            "description": "assentd: a self-hosted app verification server speaking Authsignal's wire protocol. "
                           "The server API takes the tenant's secret key; the client API is for devices and the "
                           "initiating page. Every error answer is JSON {error, errorCode, errorDescription}. "
                           "Not listed: the QR page's WebSocket (GET /v1/ws-v1-challenge, subprotocol "
                           "authsignal-ws) and the HTML pages (/, /web, /challenge). See docs/openapi.md.",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "servers": [{"url": "http://127.0.0.1:8420", "description": "assentd's default listener"}],
        "tags": [{"name": name} for name in
                 ["Server API", "Tenant settings", "Timeline", "Audit", "PowerAuth", "Client API", "Operations"]],
        "paths": dict(sorted(paths.items())),
        "components": {
            "schemas": SCHEMAS,
            "responses": responses,
            "securitySchemes": SECURITY_SCHEMES,
        },
    }


def main():
    text = json.dumps(build(), indent=2, ensure_ascii=False) + "\n"
    if "--check" in sys.argv:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print(f"{OUTPUT.relative_to(ROOT)} is not what scripts/openapi_gen.py writes; run it and commit.")
            return 1
        return 0
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {sum(len(v) for v in build()['paths'].values())} operations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
