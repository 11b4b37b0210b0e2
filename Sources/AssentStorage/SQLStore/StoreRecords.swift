import AssentServerCore
import AssentWire
import Foundation

/// The mapping between stored rows and domain types, written once for both stores. Each reader reads its row by
/// position, so its column list stands beside it: a `SELECT` (or `RETURNING`) names ``tenantColumns`` and maps the
/// rows with ``tenant(_:)``. Where a record is written whole, its values are listed here too, in the same order
/// (``tenantValues(_:)`` for an `INSERT INTO tenants (tenantColumns)`).
enum StoreRecords {
    // MARK: Tenants

    static let tenantColumns = "id, name, secret_hash, key_version, settings, created_at, secret_version"

    static func tenant(_ row: some StoreRow) throws -> Tenant {
        let settingsJSON = try row.string(4)
        let settings: TenantSettings
        do {
            settings = try JSONDecoder().decode(TenantSettings.self, from: Data(settingsJSON.utf8))
        } catch {
            throw StoreError(.corrupt, "tenant settings: \(error)")
        }
        return Tenant(
            id: try row.string(0), name: try row.string(1), secretHash: row.blob(2), secretVersion: Int(row.int64(6)),
            keyVersion: Int(row.int64(3)), settings: settings, createdAt: row.int64(5))
    }

    /// The tenant's settings as stored (JSON with sorted keys).
    static func encode(_ settings: TenantSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(settings), as: UTF8.self)
    }

    // MARK: Users

    static let userColumns = """
        tenant_id, user_id, email, email_verified, phone_number, phone_number_verified, username, display_name, \
        locale, custom, created_at, updated_at
        """

    static func user(_ row: some StoreRow) throws -> User {
        var user = User(tenantID: try row.string(0), userID: try row.string(1), now: row.int64(10))
        user.email = row.optionalString(2)
        user.emailVerified = row.bool(3)
        user.phoneNumber = row.optionalString(4)
        user.phoneNumberVerified = row.bool(5)
        user.username = row.optionalString(6)
        user.displayName = row.optionalString(7)
        user.locale = row.optionalString(8)
        user.custom = try decodeCustom(row.optionalString(9))
        user.updatedAt = row.int64(11)
        return user
    }

    static func userValues(_ user: User) -> [StoreValue] {
        [.text(user.tenantID), .text(user.userID), .optional(user.email), .bool(user.emailVerified),
         .optional(user.phoneNumber), .bool(user.phoneNumberVerified), .optional(user.username),
         .optional(user.displayName), .optional(user.locale), encodeCustom(user.custom), .integer(user.createdAt),
         .integer(user.updatedAt)]
    }

    // MARK: Actions

    static let actionColumns = """
        tenant_id, idempotency_key, user_id, action_code, state, created_at, state_updated_at, verification_method, \
        ip_address, user_agent, device_id, redirect_url, custom, scope, validated_at, location
        """

    static func action(_ row: some StoreRow) throws -> Action {
        guard let state = ActionState(rawValue: try row.string(4)) else {
            throw StoreError(.corrupt, "unknown action state")
        }
        var action = Action(
            tenantID: try row.string(0), userID: try row.string(2), actionCode: try row.string(3),
            idempotencyKey: try row.string(1), state: state, now: row.int64(5))
        action.stateUpdatedAt = row.int64(6)
        action.verificationMethod = row.optionalString(7).map(VerificationMethod.init(rawValue:))
        action.ipAddress = row.optionalString(8)
        action.userAgent = row.optionalString(9)
        action.deviceID = row.optionalString(10)
        action.redirectURL = row.optionalString(11)
        action.custom = try decodeCustom(row.optionalString(12))
        action.scope = row.optionalString(13)
        action.validatedAt = row.optionalInt64(14)
        action.location = row.optionalString(15)
        return action
    }

    static func actionValues(_ a: Action) -> [StoreValue] {
        [.text(a.tenantID), .text(a.idempotencyKey), .text(a.userID), .text(a.actionCode), .text(a.state.rawValue),
         .integer(a.createdAt), .integer(a.stateUpdatedAt), .optional(a.verificationMethod?.rawValue),
         .optional(a.ipAddress), .optional(a.userAgent), .optional(a.deviceID), .optional(a.redirectURL),
         encodeCustom(a.custom), .optional(a.scope), .optional(a.validatedAt), .optional(a.location)]
    }

    // MARK: Authenticators

    static let authenticatorColumns = """
        id, tenant_id, user_id, verification_method, created_at, verified_at, last_verified_at, email, phone_number, \
        is_default, device_platform, device_name, public_key, push_token, expires_at, errored_at, error_code, \
        user_presence_required, user_authentication_required, authentication_timeout, authorization_type, \
        signature_scheme, attestation, app_attest_key_id, app_attest_public_key, app_attest_counter
        """
    /// How many ``authenticatorColumns`` there are.
    static let authenticatorColumnCount = 26

    static func authenticator(_ row: some StoreRow) throws -> Authenticator {
        var authenticator = Authenticator(
            id: try row.string(0), tenantID: try row.string(1), userID: try row.string(2),
            verificationMethod: VerificationMethod(rawValue: try row.string(3)), createdAt: row.int64(4))
        authenticator.verifiedAt = row.optionalInt64(5)
        authenticator.lastVerifiedAt = row.optionalInt64(6)
        authenticator.email = row.optionalString(7)
        authenticator.phoneNumber = row.optionalString(8)
        authenticator.isDefault = row.bool(9)
        authenticator.devicePlatform = row.optionalString(10)
        authenticator.deviceName = row.optionalString(11)
        authenticator.publicKey = row.optionalBlob(12)
        authenticator.pushToken = row.optionalString(13)
        authenticator.expiresAt = row.optionalInt64(14)
        authenticator.erroredAt = row.optionalInt64(15)
        authenticator.errorCode = row.optionalString(16)
        authenticator.userPresenceRequired = row.bool(17)
        authenticator.userAuthenticationRequired = row.bool(18)
        authenticator.authenticationTimeout = row.optionalInt64(19).map(Int.init)
        authenticator.authorizationType = row.optionalString(20)
        authenticator.signatureScheme = SignatureScheme(rawValue: try row.string(21)) ?? .compatible
        authenticator.attestation = row.optionalString(22).flatMap(CredentialAttestation.init(json:))
        authenticator.appAttestKeyID = row.optionalBlob(23)
        authenticator.appAttestPublicKey = row.optionalBlob(24)
        authenticator.appAttestCounter = row.optionalInt64(25)
        return authenticator
    }

    static func authenticatorValues(_ a: Authenticator) -> [StoreValue] {
        [.text(a.id), .text(a.tenantID), .text(a.userID), .text(a.verificationMethod.rawValue),
         .integer(a.createdAt), .optional(a.verifiedAt), .optional(a.lastVerifiedAt), .optional(a.email),
         .optional(a.phoneNumber), .bool(a.isDefault), .optional(a.devicePlatform), .optional(a.deviceName),
         .optional(a.publicKey), .optional(a.pushToken), .optional(a.expiresAt), .optional(a.erroredAt),
         .optional(a.errorCode), .bool(a.userPresenceRequired), .bool(a.userAuthenticationRequired),
         .optional(a.authenticationTimeout), .optional(a.authorizationType), .text(a.signatureScheme.rawValue),
         .optional(a.attestation?.json), .optional(a.appAttestKeyID), .optional(a.appAttestPublicKey),
         .optional(a.appAttestCounter)]
    }

    // MARK: Nonces

    static let nonceColumns = "id, tenant_id, authenticator_id, purpose, message, created_at, expires_at, used_at"

    // MARK: Challenges

    static let challengeColumns = """
        id, tenant_id, kind, user_id, action_code, idempotency_key, target_authenticator_id, state, created_at, \
        expires_at, answered_at, answered_by, verification_code, ip_address, user_agent, device_id, custom, \
        device_code_hash, anonymous
        """

    /// How many columns ``challengeColumns`` names.
    static let challengeColumnCount = challengeColumns.split(separator: ",").count
    /// How many columns ``actionColumns`` names.
    static let actionColumnCount = actionColumns.split(separator: ",").count

    static func challenge(_ row: some StoreRow) throws -> Challenge {
        guard let kind = Challenge.Kind(rawValue: try row.string(2)),
              let state = Challenge.State(rawValue: try row.string(7))
        else { throw StoreError(.corrupt, "unknown challenge kind or state") }
        var challenge = Challenge(
            id: try row.string(0), tenantID: try row.string(1), kind: kind, createdAt: row.int64(8),
            expiresAt: row.int64(9))
        challenge.userID = row.optionalString(3)
        challenge.actionCode = row.optionalString(4)
        challenge.idempotencyKey = row.optionalString(5)
        challenge.targetAuthenticatorID = row.optionalString(6)
        challenge.state = state
        challenge.answeredAt = row.optionalInt64(10)
        challenge.answeredBy = row.optionalString(11)
        challenge.verificationCode = row.optionalString(12)
        challenge.ipAddress = row.optionalString(13)
        challenge.userAgent = row.optionalString(14)
        challenge.deviceID = row.optionalString(15)
        challenge.custom = try decodeCustom(row.optionalString(16))
        challenge.deviceCodeHash = row.optionalBlob(17)
        challenge.isAnonymous = row.bool(18)
        return challenge
    }

    /// A challenge's ``challengeColumns`` values, `$1`…`$19` in that order.
    static func challengeValues(_ c: Challenge) -> [StoreValue] {
        [.text(c.id), .text(c.tenantID), .text(c.kind.rawValue), .optional(c.userID), .optional(c.actionCode),
         .optional(c.idempotencyKey), .optional(c.targetAuthenticatorID), .text(c.state.rawValue),
         .integer(c.createdAt), .integer(c.expiresAt), .optional(c.answeredAt), .optional(c.answeredBy),
         .optional(c.verificationCode), .optional(c.ipAddress), .optional(c.userAgent), .optional(c.deviceID),
         encodeCustom(c.custom), .optional(c.deviceCodeHash), .bool(c.isAnonymous)]
    }

    // MARK: Webhook events

    static let webhookEventColumns = "id, tenant_id, type, body, created_at, next_attempt_at, attempts"

    static func webhookEvent(_ row: some StoreRow) throws -> WebhookEvent {
        var event = WebhookEvent(
            id: try row.string(0), tenantID: try row.string(1), type: try row.string(2), body: try row.string(3),
            createdAt: row.int64(4))
        event.nextAttemptAt = row.int64(5)
        event.attempts = Int(row.int64(6))
        return event
    }

    static func webhookEventValues(_ event: WebhookEvent) -> [StoreValue] {
        [.text(event.id), .text(event.tenantID), .text(event.type), .text(event.body), .integer(event.createdAt),
         .integer(event.nextAttemptAt), .integer(Int64(event.attempts))]
    }

    // MARK: PowerAuth

    static let applicationColumns =
        "tenant_id, application_key, application_secret, master_public_key, master_private_key_sealed, created_at"

    static func application(_ row: some StoreRow) throws -> PowerAuthApplication {
        PowerAuthApplication(
            tenantID: try row.string(0), applicationKey: try row.string(1), applicationSecret: try row.string(2),
            masterPublicKey: row.blob(3), sealedMasterPrivateKey: row.blob(4), createdAt: row.int64(5))
    }

    static func applicationValues(_ a: PowerAuthApplication) -> [StoreValue] {
        [.text(a.tenantID), .text(a.applicationKey), .text(a.applicationSecret), .blob(a.masterPublicKey),
         .blob(a.sealedMasterPrivateKey), .integer(a.createdAt)]
    }

    static let activationColumns = """
        id, tenant_id, user_id, name, status, blocked_reason, device_public_key, server_public_key, \
        master_secret_sealed, ctr, ctr_data, failed_attempts, fingerprint, enrolment_key, created_at, updated_at, \
        last_used_at, attestation, app_attest_key_id, app_attest_public_key, app_attest_counter
        """

    static func activation(_ row: some StoreRow) throws -> ActivationRecord {
        guard let status = ActivationStatus(rawValue: try row.string(4)) else {
            throw StoreError(.corrupt, "activation status")
        }
        var activation = ActivationRecord(
            id: try row.string(0), tenantID: try row.string(1), userID: try row.string(2), name: row.optionalString(3),
            status: status, blockedReason: row.optionalString(5).flatMap(ActivationBlockedReason.init(rawValue:)),
            devicePublicKey: row.blob(6), serverPublicKey: row.blob(7), sealedMasterSecret: row.blob(8),
            counter: row.int64(9), counterData: row.blob(10), failedAttempts: Int(row.int64(11)), fingerprint: try row.string(12),
            enrolmentKey: try row.string(13), createdAt: row.int64(14), updatedAt: row.int64(15), lastUsedAt: row.optionalInt64(16))
        activation.attestation = row.optionalString(17).flatMap(CredentialAttestation.init(json:))
        activation.appAttestKeyID = row.optionalBlob(18)
        activation.appAttestPublicKey = row.optionalBlob(19)
        activation.appAttestCounter = row.optionalInt64(20)
        return activation
    }

    static func activationValues(_ a: ActivationRecord) -> [StoreValue] {
        [.text(a.id), .text(a.tenantID), .text(a.userID), .optional(a.name), .text(a.status.rawValue),
         .optional(a.blockedReason?.rawValue), .blob(a.devicePublicKey), .blob(a.serverPublicKey),
         .blob(a.sealedMasterSecret), .integer(a.counter), .blob(a.counterData), .integer(Int64(a.failedAttempts)),
         .text(a.fingerprint), .text(a.enrolmentKey), .integer(a.createdAt), .integer(a.updatedAt),
         .optional(a.lastUsedAt), .optional(a.attestation?.json), .optional(a.appAttestKeyID),
         .optional(a.appAttestPublicKey), .optional(a.appAttestCounter)]
    }

    // MARK: Push delivery

    /// Read from `push_deliveries d` (the alias lets a claim join the authenticator and challenge).
    static let deliveryColumns = """
        d.id, d.tenant_id, d.challenge_id, d.authenticator_id, d.provider, d.created_at, d.expires_at, \
        d.next_attempt_at, d.attempts, d.state, d.claimed_until, d.last_error
        """

    static func delivery(_ row: some StoreRow) throws -> PushDelivery {
        guard let provider = PushSettings.Provider(rawValue: try row.string(4)),
              let state = PushDelivery.State(rawValue: try row.string(9))
        else { throw StoreError(.corrupt, "unknown push delivery provider or state") }
        var delivery = PushDelivery(
            id: try row.string(0), tenantID: try row.string(1), challengeID: try row.string(2),
            authenticatorID: try row.string(3), provider: provider, createdAt: row.int64(5), expiresAt: row.int64(6))
        delivery.nextAttemptAt = row.int64(7)
        delivery.attempts = Int(row.int64(8))
        delivery.state = state
        delivery.claimedUntil = row.optionalInt64(10)
        delivery.lastError = row.optionalString(11)
        return delivery
    }

    /// A claimed delivery: ``deliveryColumns`` followed by its authenticator's push token and platform.
    static func claimedDelivery(_ row: some StoreRow) throws -> PushDelivery {
        var delivery = try self.delivery(row)
        delivery.pushToken = row.optionalString(12)
        delivery.devicePlatform = row.optionalString(13)
        return delivery
    }

    static let timelineColumns = "event, tenant_id, challenge_id, at, authenticator_id, provider, attempt, status, detail"

    static func timelineEntry(_ row: some StoreRow) throws -> ChallengeTimelineEntry {
        ChallengeTimelineEntry(
            event: try row.string(0), tenantID: try row.string(1), challengeID: try row.string(2), at: row.int64(3),
            authenticatorID: row.optionalString(4), provider: row.optionalString(5),
            attempt: row.optionalInt64(6).map(Int.init), status: row.optionalInt64(7).map(Int.init),
            detail: row.optionalString(8))
    }

    // MARK: Custom data

    /// Public custom data stored as JSON text; nil when the column is NULL. Read by `JSONReader` (this runs for most
    /// rows a flow reads); text it refuses (nesting deeper than it reads, written before it existed) goes through
    /// `JSONDecoder` as it always did.
    static func decodeCustom(_ json: String?) throws -> [String: JSONValue]? {
        guard let json else { return nil }
        if case .object(let object)? = try? JSONReader.value(Array(json.utf8)) { return object }
        do {
            return try JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8))
        } catch {
            throw StoreError(.corrupt, "custom data: \(error)")
        }
    }

    /// Custom data as JSON text (`JSONWriter`: keys sorted), or NULL.
    static func encodeCustom(_ custom: [String: JSONValue]?) -> StoreValue {
        guard let custom else { return .null }
        var writer = JSONWriter(capacity: 64)
        writer.value(JSONValue.object(custom))
        return .text(String(decoding: writer.bytes, as: UTF8.self))
    }
}
