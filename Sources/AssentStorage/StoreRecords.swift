import AssentServerCore
import AssentWire
import Foundation

/// The mapping from a stored row to its domain type, written once for both stores: each `SELECT` names its columns
/// in the order these read them (e.g. ``SQLiteStore/challengeColumns``).
enum StoreRecords {
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
        return authenticator
    }

    static func nonce(_ row: some StoreRow) throws -> Nonce {
        guard let purpose = Nonce.Purpose(rawValue: try row.string(3)) else {
            throw StoreError(.corrupt, "unknown nonce purpose")
        }
        return Nonce(
            id: try row.string(0), tenantID: try row.string(1), authenticatorID: try row.string(2), purpose: purpose,
            message: try row.string(4), createdAt: row.int64(5), expiresAt: row.int64(6), usedAt: row.optionalInt64(7))
    }

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
        return challenge
    }

    static func application(_ row: some StoreRow) throws -> PowerAuthApplication {
        PowerAuthApplication(
            tenantID: try row.string(0), applicationKey: try row.string(1), applicationSecret: try row.string(2),
            masterPublicKey: row.blob(3), sealedMasterPrivateKey: row.blob(4), createdAt: row.int64(5))
    }

    static func activation(_ row: some StoreRow) throws -> ActivationRecord {
        guard let status = ActivationStatus(rawValue: try row.string(4)) else {
            throw StoreError(.corrupt, "activation status")
        }
        return ActivationRecord(
            id: try row.string(0), tenantID: try row.string(1), userID: try row.string(2), name: row.optionalString(3),
            status: status, blockedReason: row.optionalString(5).flatMap(ActivationBlockedReason.init(rawValue:)),
            devicePublicKey: row.blob(6), serverPublicKey: row.blob(7), sealedMasterSecret: row.blob(8),
            counter: row.int64(9), counterData: row.blob(10), failedAttempts: Int(row.int64(11)), fingerprint: try row.string(12),
            enrolmentKey: try row.string(13), createdAt: row.int64(14), updatedAt: row.int64(15), lastUsedAt: row.optionalInt64(16))
    }

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

    /// Public custom data stored as JSON text; nil when the column is NULL.
    static func decodeCustom(_ json: String?) throws -> [String: JSONValue]? {
        guard let json else { return nil }
        do {
            return try JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8))
        } catch {
            throw StoreError(.corrupt, "custom data: \(error)")
        }
    }
}
