import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation

/// The server API (`/v1/users/...`, `/v1/validate`), authenticated with the tenant's secret key over HTTP Basic.
struct ServerAPI: Sendable {
    let authenticated: SecretKeyAuthentication
    let actions: ActionService
    let users: UserService
    let decoder: any RequestDecoding
    /// Where `assentd` is reachable from browsers, without a trailing slash.
    let publicURL: PublicURL
    /// Push settings and delivery timelines.
    let push: PushAdministration
    /// Push throttles and fraud locks, reset by the backend.
    let guards: PushGuards
    /// What anonymous QR starts may do.
    let qrCode: QRCodeAdministration
    /// Every tenant setting.
    let settings: TenantSettingsAdministration

    /// The audit actor of a change made with the tenant's secret key.
    static let actor = "secret-key"

    func register(in router: inout Router) {
        router.add(.getPushSettings, authenticated { _, _, tenant in push.settings(tenant) })
        router.add(.updatePushSettings, authenticated { request, _, tenant in
            try await push.update(try decoder.decode(UpdatePushSettingsRequest.self, from: request), tenant)
        })
        router.add(.getAnonymousQRSettings, authenticated { _, _, tenant in qrCode.settings(tenant) })
        router.add(.updateAnonymousQRSettings, authenticated { request, _, tenant in
            try await qrCode.update(try decoder.decode(AnonymousQRSettings.self, from: request), tenant)
        })
        router.add(.getTenantSettings, authenticated { _, _, tenant in settings.settings(tenant) })
        router.add(.updateTenantSettings, authenticated { request, _, tenant in
            try await settings.update(try decoder.members(of: request), tenant)
        })
        router.add(.getChallengeTimeline, authenticated { _, parameters, tenant in
            try await push.timeline(tenant, challengeID: try PathParameter.identifier(parameters, "challengeId"))
        })
        router.add(.track, authenticated(track))
        router.add(.getAction, authenticated(getAction))
        router.add(.updateAction, authenticated(updateAction))
        router.add(.validate, authenticated(validate))
        router.add(.getUser, authenticated(getUser))
        router.add(.updateUser, authenticated(updateUser))
        router.add(.updateUserByPost, authenticated(updateUser))
        router.add(.deleteUser, authenticated(deleteUser))
        router.add(.exportUser, authenticated { _, parameters, tenant in
            let userID = try PathParameter.userID(parameters)
            let data = try await users.export(tenant: tenant, userID: userID, actor: Self.actor)
            return APIResponses.ok(Self.response(data, userID: userID, tenant: tenant))
        })
        router.add(.resetUserPush, authenticated(resetUserPush))
        router.add(.getAuthenticators, authenticated(getAuthenticators))
        router.add(.enrollAuthenticator, authenticated(enrollAuthenticator))
        router.add(.deleteAuthenticator, authenticated(deleteAuthenticator))
    }

    // MARK: Actions

    private func track(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let actionCode = try PathParameter.actionCode(parameters)
        let track = try decoder.decode(TrackRequest.self, from: request)
        var attributes = TrackAttributes()
        attributes.idempotencyKey = track.idempotencyKey
        attributes.redirectURL = track.redirectUrl
        attributes.redirectToSettings = track.redirectToSettings
        attributes.ipAddress = track.ipAddress
        attributes.userAgent = track.userAgent
        attributes.deviceID = track.deviceId
        attributes.location = track.location
        attributes.scope = track.scope
        attributes.email = track.email
        attributes.phoneNumber = track.phoneNumber
        attributes.username = track.username
        attributes.locale = track.locale
        attributes.custom = track.custom

        let tracked = try await actions.track(tenant: tenant, userID: userID, actionCode: actionCode, attributes: attributes)
        let enrolled = Self.methods(tracked.authenticators)
        let response = TrackResponse(
            state: tracked.action.state, idempotencyKey: tracked.action.idempotencyKey,
            url: "\(publicURL.current)\(PageRoute.challengePage.path)?token=\(tracked.token)", token: tracked.token,
            isEnrolled: !enrolled.isEmpty, enrolledVerificationMethods: enrolled, allowedVerificationMethods: Self.allowed(enrolled),
            defaultVerificationMethod: enrolled.first)
        return APIResponses.ok(response)
    }

    private func getAction(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let action = try await actions.action(
            tenant: tenant, userID: try PathParameter.userID(parameters),
            actionCode: try PathParameter.actionCode(parameters),
            idempotencyKey: try PathParameter.identifier(parameters, "idempotencyKey"))
        return APIResponses.ok(Self.response(action))
    }

    private func updateAction(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let actionCode = try PathParameter.actionCode(parameters)
        let key = try PathParameter.identifier(parameters, "idempotencyKey")
        let update = try decoder.decode(UpdateActionRequest.self, from: request)
        let action = try await actions.updateState(
            tenant: tenant, userID: userID, actionCode: actionCode, idempotencyKey: key, state: update.state)
        return APIResponses.ok(Self.response(action))
    }

    private func validate(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let validate = try decoder.decode(ValidateRequest.self, from: request)
        let validation = try await actions.validate(
            tenant: tenant, token: validate.token, userID: validate.userId, actionCode: validate.action)
        return APIResponses.ok(Self.response(validation))
    }

    // MARK: Users

    /// Set on `GET /v1/users/{userId}`: whether the tenant knows the user (`assent admin user get` says "no such user"
    /// when not). Defined once for both sides in ``UserResponse/knownHeader``.
    static let userKnownHeader = UserResponse.knownHeader

    private func getUser(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let profile = try await users.lookUp(tenant: tenant, userID: try PathParameter.userID(parameters))
        var response = APIResponses.ok(Self.response(profile.user, profile.authenticators))
        // The body stays Authsignal's (an unknown user reads as not enrolled); this header lets a tool say more.
        response.headers.replace(Self.userKnownHeader, profile.isKnown ? "true" : "false")
        return response
    }

    private func updateUser(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let changes = try decoder.decode(UpdateUserRequest.self, from: request)
        let profile = try await users.update(tenant: tenant, userID: userID, edit: Self.edit(changes))
        return APIResponses.ok(Self.response(profile.user, profile.authenticators))
    }

    private func deleteUser(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let deleted = try await users.delete(tenant: tenant, userID: userID, actor: Self.actor)
        return APIResponses.ok(DeleteUserResponse(userId: userID, deleted: deleted))
    }

    private func resetUserPush(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        try await guards.reset(tenantID: tenant.id, userID: userID)
        return APIResponses.ok(ResetUserPushResponse(userId: userID))
    }

    private func getAuthenticators(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let list = try await users.authenticators(tenant: tenant, userID: try PathParameter.userID(parameters))
        return APIResponses.ok(list.map(Self.response))
    }

    private func enrollAuthenticator(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let enroll = try decoder.decode(EnrollAuthenticatorRequest.self, from: request)
        let authenticator = try await users.enrollVerified(
            tenant: tenant, userID: userID, method: enroll.verificationMethod, email: enroll.email,
            phoneNumber: enroll.phoneNumber, isDefault: enroll.isDefault ?? false, actor: Self.actor)
        return APIResponses.ok(EnrollAuthenticatorResponse(authenticator: Self.response(authenticator)))
    }

    private func deleteAuthenticator(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let id = try PathParameter.identifier(parameters, "userAuthenticatorId")
        try await users.deleteAuthenticator(tenant: tenant, userID: userID, id: id, actor: Self.actor)
        return APIResponses.ok(DeleteAuthenticatorResponse(userAuthenticatorId: id))
    }

    // MARK: Mapping

    static func methods(_ authenticators: [Authenticator]) -> [VerificationMethod] {
        var seen: [VerificationMethod] = []
        for authenticator in authenticators where !seen.contains(authenticator.verificationMethod) {
            seen.append(authenticator.verificationMethod)
        }
        return seen
    }

    /// Methods the user may use: those enrolled, or for a user without any the ones a device can enrol.
    static func allowed(_ enrolled: [VerificationMethod]) -> [VerificationMethod] {
        enrolled.isEmpty ? [.push, .device] : enrolled
    }

    static func response(_ action: Action) -> ActionResponse {
        var output: [String: JSONValue] = [:]
        if let ip = action.ipAddress { output["ipAddress"] = .string(ip) }
        if let agent = action.userAgent { output["userAgent"] = .string(agent) }
        if let device = action.deviceID { output["deviceId"] = .string(device) }
        if let custom = action.custom { output["custom"] = .object(custom) }
        return ActionResponse(
            state: action.state, stateUpdatedAt: Timestamp.iso8601(milliseconds: action.stateUpdatedAt),
            createdAt: Timestamp.iso8601(milliseconds: action.createdAt), verificationMethod: action.verificationMethod,
            actionCode: action.actionCode, idempotencyKey: action.idempotencyKey, userId: action.userID, output: output)
    }

    static func response(_ validation: ActionService.Validation) -> ValidateResponse {
        ValidateResponse(
            isValid: validation.isValid, state: validation.action?.state,
            stateUpdatedAt: validation.action.map { Timestamp.iso8601(milliseconds: $0.stateUpdatedAt) },
            userId: validation.userID, actionCode: validation.actionCode, idempotencyKey: validation.idempotencyKey,
            verificationMethod: validation.action?.verificationMethod, error: validation.failure)
    }

    /// The decoded `PATCH /v1/users/{userId}` as the domain's edit (absent stays, null clears).
    static func edit(_ request: UpdateUserRequest) -> UserEdit {
        var edit = UserEdit()
        edit.email = request.email
        edit.emailVerified = request.emailVerified
        edit.phoneNumber = request.phoneNumber
        edit.phoneNumberVerified = request.phoneNumberVerified
        edit.username = request.username
        edit.displayName = request.displayName
        edit.locale = request.locale
        edit.custom = request.custom
        return edit
    }

    static func response(_ user: User, _ authenticators: [Authenticator]) -> UserResponse {
        let enrolled = methods(authenticators)
        return UserResponse(
            userId: user.userID, isEnrolled: !enrolled.isEmpty, email: user.email, emailVerified: user.emailVerified,
            phoneNumber: user.phoneNumber, phoneNumberVerified: user.phoneNumberVerified, username: user.username,
            displayName: user.displayName, locale: user.locale, custom: user.custom,
            enrolledVerificationMethods: enrolled, allowedVerificationMethods: allowed(enrolled))
    }

    static func response(_ authenticator: Authenticator) -> UserAuthenticatorResponse {
        UserAuthenticatorResponse(
            userId: authenticator.userID, userAuthenticatorId: authenticator.id,
            verificationMethod: authenticator.verificationMethod,
            createdAt: Timestamp.iso8601(milliseconds: authenticator.createdAt),
            verifiedAt: authenticator.verifiedAt.map(Timestamp.iso8601(milliseconds:)),
            lastVerifiedAt: authenticator.lastVerifiedAt.map(Timestamp.iso8601(milliseconds:)),
            email: authenticator.email, phoneNumber: authenticator.phoneNumber,
            devicePlatform: authenticator.devicePlatform, deviceName: authenticator.deviceName,
            isDefault: authenticator.isDefault, erroredAt: authenticator.erroredAt.map(Timestamp.iso8601(milliseconds:)),
            errorCode: authenticator.errorCode, expiresAt: authenticator.expiresAt.map(Timestamp.iso8601(milliseconds:)),
            attestation: authenticator.attestation.map(response))
    }

    /// The export of ``UserService/export(tenant:userID:actor:)`` as the wire has it.
    static func response(_ data: UserData, userID: String, tenant: Tenant) -> UserExportResponse {
        UserExportResponse(
            userId: userID, exportedAt: Timestamp.iso8601(milliseconds: data.exportedAt),
            user: data.user.map { response($0, data.authenticators) }, authenticators: data.authenticators.map(response),
            activations: data.activations.map { ActivationServerAPI.response($0, tenant) },
            actions: data.actions.map(response), challenges: data.challenges.map(response),
            signIns: data.signIns.map(SignInFilter.entry), auditEntries: data.auditEntries.map(AuditAPI.response))
    }

    static func response(_ challenge: Challenge) -> UserExportResponse.Challenge {
        UserExportResponse.Challenge(
            challengeId: challenge.id, kind: challenge.kind.rawValue, actionCode: challenge.actionCode,
            state: challenge.state.rawValue, createdAt: Timestamp.iso8601(milliseconds: challenge.createdAt),
            expiresAt: Timestamp.iso8601(milliseconds: challenge.expiresAt),
            answeredAt: challenge.answeredAt.map(Timestamp.iso8601(milliseconds:)), answeredBy: challenge.answeredBy,
            ipAddress: challenge.ipAddress, userAgent: challenge.userAgent, deviceId: challenge.deviceID)
    }

    static func response(_ verdict: CredentialAttestation) -> AuthenticatorAttestation { verdict.wire }
}
