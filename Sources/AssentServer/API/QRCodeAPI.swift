import AssentHTTP
import AssentLog
import AssentQRRender
import AssentServerCore
import AssentWire
import Foundation

/// The QR code parts of the client API: the page opens and polls a challenge, the device claims and answers it.
struct QRCodeAPI: Sendable {
    let credentials: ClientCredentials
    let devices: DeviceCredentialService
    let qr: QRChallengeService
    let decisions: ChallengeDecisions
    let decoder: any RequestDecoding
    let limits: RequestLimits
    let logger: Logger

    func register(in router: inout Router) {
        CrossOrigin.add(&router, .startQRCodeChallenge, handle(start))
        CrossOrigin.add(&router, .verifyQRCodeChallenge, handle(verify))
        CrossOrigin.add(&router, .claimQRCodeChallenge, handle(claim))
        CrossOrigin.add(&router, .updateQRCodeChallenge, handle(answer))
        for (endpoint, png) in [(Endpoint.qrCodeImageSVG, false), (.qrCodeImagePNG, true)] {
            CrossOrigin.add(&router, endpoint) { request, parameters in
                await handle { try await image($0, parameters, png: png) }(request, parameters)
            }
        }
    }

    /// The challenge's QR code as SVG or PNG (for `<img src>`, so the tenant comes as `?tenant=`). The image only
    /// carries the payload, which the page already knows; it is served for open QR challenges of that tenant.
    private func image(_ request: HTTPRequest, _ parameters: RouteParameters, png: Bool) async throws -> HTTPResponse {
        let id = try PathParameter.identifier(parameters, "challengeId")
        guard let tenantID = try PathParameter.query(request, "tenant", maxBytes: 128),
              let challenge = try await qr.openChallenge(tenantID: tenantID, id: id)
        else { throw AssentError(.notFound, "No open QR challenge with this id for this tenant.") }
        let matrix = try QRCodeMatrix(QRPayload(tenantID: challenge.tenantID, challengeID: challenge.id).text)
        var response: HTTPResponse
        if png {
            response = HTTPResponse(status: 200, headers: HTTPHeaders(), body: try QRCodeImage.png(matrix, moduleSize: 8))
            response.headers.replace("Content-Type", "image/png")
        } else {
            response = .text(
                200, try QRCodeImage.svg(matrix, moduleSize: 8, title: "QR code to sign in with your phone"),
                contentType: "image/svg+xml")
        }
        response.headers.replace("Cache-Control", "no-store")
        return response
    }

    private func handle(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Router.Handler {
        APIResponses.handler(logger: logger, body)
    }

    static func initiator(_ request: HTTPRequest) -> QRChallengeService.Initiator {
        QRChallengeService.Initiator(
            ipAddress: request.remoteAddress, userAgent: request.headers["User-Agent"].map { String($0.prefix(512)) })
    }

    private func start(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isBearer = request.headers["Authorization"]?.lowercased().hasPrefix("bearer ") ?? false
        if !isBearer { try limits.address(.anonymousQRStartAddress, request) }
        let (tenant, claims): (Tenant, TokenClaims?) = isBearer
            ? try await credentials.bearer(request) : (try await credentials.tenant(request), nil)
        let start = try decoder.decode(StartQRChallengeRequest.self, from: request)
        if let claims {
            try limits.user(.startUser, tenant, claims)
        } else {
            try limits.tenant(.anonymousQRStartTenant, tenant)
        }
        let started = try await qr.start(
            tenant: tenant, claims: claims, action: start.action, initiator: Self.initiator(request))
        let challenge = started.challenge
        return APIResponses.ok(
            StartQRChallengeResponse(
                challengeId: challenge.id, expiresAt: Timestamp.iso8601(milliseconds: challenge.expiresAt),
                deviceCode: started.deviceCode, qrPayload: QRPayload(tenantID: tenant.id, challengeID: challenge.id).text))
    }

    private func verify(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let verify = try decoder.decode(VerifyQRRequest.self, from: request)
        let progress = try await qr.verify(tenant: tenant, challengeID: verify.challengeId, deviceCode: verify.deviceCode)
        return APIResponses.ok(
            VerifyQRResponse(
                isClaimed: progress.isClaimed, isConsumed: progress.isConsumed, isVerified: progress.isVerified,
                accessToken: progress.accessToken))
    }

    private func claim(_ request: HTTPRequest) async throws -> HTTPResponse {
        try limits.address(.claimAddress, request)
        let tenant = try await credentials.tenant(request)
        let claim = try decoder.decode(ClaimChallengeRequest.self, from: request)
        let key = try DeviceKey(base64: claim.publicKey)
        try limits.key(.claimKey, tenant, key)
        let authenticator = try await devices.credential(tenant: tenant, method: .device, key: key)
        let claimed = try await qr.claim(
            tenant: tenant, authenticator: authenticator, key: key,
            claim: QRChallengeService.Claim(challengeID: claim.challengeId, signature: claim.signature))
        return APIResponses.ok(ClaimChallengeResponse(claimed))
    }

    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tenant = try await credentials.tenant(request)
        let update = try decoder.decode(UpdateChallengeRequest.self, from: request)
        let key = try DeviceKey(base64: update.publicKey)
        let authenticator = try await devices.credential(tenant: tenant, method: .device, key: key)
        let header = request.headers[PowerAuthAuthorizationHeader.name]
        let answered = try await limits.countingFailedVerifications(header: header) {
            try await decisions.answer(
                tenant: tenant, authenticator: authenticator, key: key, answer: ChallengeAnswer(update), kind: .qrCode,
                proof: ApprovalProof(request))
        }
        return APIResponses.ok(UpdateChallengeResponse(isVerified: answered.state == .approved))
    }
}
