import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// The server API (`/v1/users/...`, `/v1/validate`), authenticated with the tenant's secret key over HTTP Basic.
struct ServerAPI: Sendable {
    let tenants: TenantDirectory
    let actions: ActionService
    let users: UserService
    let logger: Logger
    /// Where `assentd` is reachable from browsers, without a trailing slash.
    let publicURL: PublicURL
    /// Push settings and delivery timelines.
    let push: PushAdministration

    func register(in router: inout Router) {
        router.add("GET", "/v1/tenant/push", authenticated { _, _, tenant in push.settings(tenant) })
        router.add("PATCH", "/v1/tenant/push", authenticated { request, _, tenant in try await push.update(request, tenant) })
        router.add("GET", "/v1/challenges/{challengeId}/timeline", authenticated { _, parameters, tenant in
            try await push.timeline(tenant, challengeID: try PathParameter.identifier(parameters, "challengeId"))
        })
        router.add("POST", "/v1/users/{userId}/actions/{action}", authenticated(track))
        router.add("GET", "/v1/users/{userId}/actions/{action}/{idempotencyKey}", authenticated(getAction))
        router.add("PATCH", "/v1/users/{userId}/actions/{action}/{idempotencyKey}", authenticated(updateAction))
        router.add("POST", "/v1/validate", authenticated(validate))
        router.add("GET", "/v1/users/{userId}", authenticated(getUser))
        router.add("PATCH", "/v1/users/{userId}", authenticated(updateUser))
        router.add("DELETE", "/v1/users/{userId}", authenticated(deleteUser))
        router.add("GET", "/v1/users/{userId}/authenticators", authenticated(getAuthenticators))
        router.add("POST", "/v1/users/{userId}/authenticators", authenticated(enrollAuthenticator))
        router.add("DELETE", "/v1/users/{userId}/authenticators/{userAuthenticatorId}", authenticated(deleteAuthenticator))
    }

    private typealias Handler = @Sendable (HTTPRequest, RouteParameters, Tenant) async throws -> HTTPResponse

    /// Checks the secret key, then runs `handler`; every failure becomes the JSON error answer.
    private func authenticated(_ handler: @escaping Handler) -> Router.Handler {
        { [tenants, logger] request, parameters in
            do {
                guard let secret = BasicCredentials.user(from: request.headers["Authorization"]),
                      let tenant = try await tenants.tenant(secret: secret)
                else { throw AssentError.unauthorized() }
                return try await handler(request, parameters, tenant)
            } catch {
                return APIResponses.failure(error, request: request, logger: logger)
            }
        }
    }

    // MARK: Actions

    private func track(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let actionCode = try PathParameter.actionCode(parameters)
        let body = try JSONBody(request)
        var attributes = TrackAttributes()
        attributes.idempotencyKey = try body.string("idempotencyKey", maxLength: 200, allowEmpty: false)
        attributes.redirectURL = try body.string("redirectUrl", maxLength: 2048)
        attributes.redirectToSettings = try body.bool("redirectToSettings")
        attributes.ipAddress = try body.string("ipAddress", maxLength: 64)
        attributes.userAgent = try body.string("userAgent", maxLength: 1024)
        attributes.deviceID = try body.string("deviceId", maxLength: 256)
        attributes.location = try body.string("location", maxLength: 256)
        attributes.scope = try body.string("scope", maxLength: 512)
        attributes.email = try body.string("email", maxLength: 320)
        attributes.phoneNumber = try body.string("phoneNumber", maxLength: 32)
        attributes.username = try body.string("username", maxLength: 255)
        attributes.locale = try body.string("locale", maxLength: 35)
        attributes.custom = try body.object("custom")
        _ = try body.string("customDomain", maxLength: 255)
        _ = try body.string("challengeId", maxLength: 200)

        let tracked = try await actions.track(tenant: tenant, userID: userID, actionCode: actionCode, attributes: attributes)
        let enrolled = Self.methods(tracked.authenticators)
        let response = TrackResponse(
            state: tracked.action.state, idempotencyKey: tracked.action.idempotencyKey,
            url: "\(publicURL.current)/challenge?token=\(tracked.token)", token: tracked.token, isEnrolled: !enrolled.isEmpty,
            enrolledVerificationMethods: enrolled, allowedVerificationMethods: Self.allowed(enrolled),
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
        let body = try JSONBody(request)
        let name = try body.requiredString("state", maxLength: 64)
        guard let state = ActionState(rawValue: name) else {
            throw AssentError(
                .invalidRequest,
                "state must be one of " + ActionState.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        let action = try await actions.updateState(
            tenant: tenant, userID: userID, actionCode: actionCode, idempotencyKey: key, state: state)
        return APIResponses.ok(Self.response(action))
    }

    private func validate(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let body = try JSONBody(request)
        let token = try body.requiredString("token", maxLength: 4096)
        let userID = try body.string("userId", maxLength: 255)
        let actionCode = try body.string("action", maxLength: 100)
        return APIResponses.ok(
            try await actions.validate(tenant: tenant, token: token, userID: userID, actionCode: actionCode))
    }

    // MARK: Users

    private func getUser(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let (user, authenticators) = try await users.user(tenant: tenant, userID: try PathParameter.userID(parameters))
        return APIResponses.ok(Self.response(user, authenticators))
    }

    private func updateUser(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let body = try JSONBody(request)
        var changes = UserService.Changes()
        changes.email = try body.nullableString("email", maxLength: 320)
        changes.emailVerified = try body.bool("emailVerified")
        changes.phoneNumber = try body.nullableString("phoneNumber", maxLength: 32)
        changes.phoneNumberVerified = try body.bool("phoneNumberVerified")
        changes.username = try body.nullableString("username", maxLength: 255)
        changes.displayName = try body.nullableString("displayName", maxLength: 255)
        changes.locale = try body.nullableString("locale", maxLength: 35)
        changes.custom = try body.nullableObject("custom")
        let (user, authenticators) = try await users.update(tenant: tenant, userID: userID, changes: changes)
        return APIResponses.ok(Self.response(user, authenticators))
    }

    private func deleteUser(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let deleted = try await users.delete(tenant: tenant, userID: userID)
        return APIResponses.ok(["userId": JSONValue.string(userID), "deleted": .bool(deleted)])
    }

    private func getAuthenticators(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let list = try await users.authenticators(tenant: tenant, userID: try PathParameter.userID(parameters))
        return APIResponses.ok(list.map(Self.response))
    }

    private func enrollAuthenticator(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let body = try JSONBody(request)
        let method = VerificationMethod(rawValue: try body.requiredString("verificationMethod", maxLength: 64))
        let authenticator = try await users.enrollVerified(
            tenant: tenant, userID: userID, method: method, email: try body.string("email", maxLength: 320),
            phoneNumber: try body.string("phoneNumber", maxLength: 32), isDefault: try body.bool("isDefault") ?? false)
        return APIResponses.ok(EnrollAuthenticatorResponse(authenticator: Self.response(authenticator)))
    }

    private func deleteAuthenticator(_ request: HTTPRequest, _ parameters: RouteParameters, _ tenant: Tenant) async throws -> HTTPResponse {
        let userID = try PathParameter.userID(parameters)
        let id = try PathParameter.identifier(parameters, "userAuthenticatorId")
        try await users.deleteAuthenticator(tenant: tenant, userID: userID, id: id)
        return APIResponses.ok(["userAuthenticatorId": JSONValue.string(id), "deleted": .bool(true)])
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
            errorCode: authenticator.errorCode, expiresAt: authenticator.expiresAt.map(Timestamp.iso8601(milliseconds:)))
    }
}
