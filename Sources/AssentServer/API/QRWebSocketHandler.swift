import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation
import AssentSync

/// `/v1/ws-v1-challenge`: the QR page's WebSocket (wire reference §4). The page offers the subprotocols
/// `authsignal-ws` and `x.authsignal.token.<track token>` (a known user) or `x.authsignal.tenant.<tenant id>`
/// (anonymous); it sends `CREATE_CHALLENGE` and receives `CHALLENGE_CREATED`, then a `STATE_CHANGE` the moment a device
/// claims, approves or declines — pushed from the event bus, no polling. A new `CREATE_CHALLENGE` on the same socket
/// replaces the challenge it watches (the page's refresh before expiry). The messages are ``QRCodeSocket``'s, read and
/// written by their tables; the message's data is read as the HTTP start's ``StartQRChallengeRequest`` by the same
/// decoder, so both ways in keep one set of rules and answer the same errors. A message that is no `CREATE_CHALLENGE`
/// (or whose data is no object) is answered `ERROR` and counts toward nothing.
final class QRWebSocketHandler: WebSocketHandler {
    private struct Session {
        var tenant: Tenant
        var claims: TokenClaims?
        var watching: ChallengeEvents.Subscription?
        var created = 0
    }

    /// Challenges one socket may create (refreshes included) before it must reconnect.
    static let maxChallengesPerSocket = 500

    private let tenants: TenantDirectory
    private let credentials: ClientCredentials
    private let qr: QRChallengeService
    private let events: ChallengeEvents
    private let decoder: any RequestDecoding
    private let limits: RequestLimits
    private let logger: Logger
    private let sessions = AssentLock<[UInt64: Session]>([:])

    init(
        tenants: TenantDirectory, credentials: ClientCredentials, qr: QRChallengeService, events: ChallengeEvents,
        decoder: any RequestDecoding, limits: RequestLimits, logger: Logger
    ) {
        self.tenants = tenants
        self.credentials = credentials
        self.qr = qr
        self.events = events
        self.decoder = decoder
        self.limits = limits
        self.logger = logger
    }

    /// Who the page is, from its offered subprotocols.
    private func authenticate(_ offered: [String]) async throws -> (Tenant, TokenClaims?) {
        guard offered.contains("authsignal-ws") else {
            throw AssentError(.invalidRequest, "The authsignal-ws subprotocol is required.")
        }
        if let token = offered.first(where: { $0.hasPrefix("x.authsignal.token.") })?.dropFirst("x.authsignal.token.".count) {
            let (tenant, claims) = try await credentials.trackToken(String(token))
            return (tenant, claims)
        }
        if let id = offered.first(where: { $0.hasPrefix("x.authsignal.tenant.") })?.dropFirst("x.authsignal.tenant.".count),
           !id.isEmpty, id.utf8.count <= 128, let tenant = try await tenants.tenant(id: ClientCredentials.tenantID(String(id)))
        {
            return (tenant, nil)
        }
        throw AssentError(.unauthorized, "Offer x.authsignal.token.<token> or x.authsignal.tenant.<tenant id>.")
    }

    func accept(_ request: HTTPRequest, offeredProtocols: [String]) async -> WebSocketAcceptance {
        do {
            try limits.address(.webSocketAddress, request)
            _ = try await authenticate(offeredProtocols)
            return .accept(subprotocol: "authsignal-ws")
        } catch {
            return .reject(APIResponses.failure(error, request: request, logger: logger))
        }
    }

    func didOpen(_ socket: WebSocket) async {
        let offered = (socket.request.headers["Sec-WebSocket-Protocol"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let (tenant, claims) = try? await authenticate(offered) else {
            socket.close(code: WebSocketCloseCode.policyViolation, reason: "unauthorized")
            return
        }
        sessions.withLock { $0[socket.id] = Session(tenant: tenant, claims: claims) }
    }

    func didReceive(text: String, from socket: WebSocket) async {
        let message: QRCodeSocket.CreateChallenge
        do {
            message = try QRWebSocketMessage.createChallenge(Array(text.utf8))
        } catch {
            send(socket, QRCodeSocket.Failure(
                errorCode: AssentError.Code.invalidRequest.wire, errorDescription: error.reason))
            return
        }
        guard let session = sessions.withLock({ sessions -> Session? in
            guard var session = sessions[socket.id], session.created < Self.maxChallengesPerSocket else { return nil }
            session.created += 1
            sessions[socket.id] = session
            return session
        }) else {
            socket.close(code: WebSocketCloseCode.policyViolation, reason: "too many challenges on one socket")
            return
        }
        do {
            let start = try QRWebSocketMessage.startRequest(message.data, decoder: decoder)
            // The same limits as the HTTP start: a socket is no way around them.
            if let claims = session.claims {
                try limits.user(.startUser, session.tenant, claims)
            } else {
                try limits.address(.anonymousQRStartAddress, socket.request)
                try limits.tenant(.anonymousQRStartTenant, session.tenant)
            }
            let initiator = QRCodeAPI.initiator(socket.request)
            let challenge = try await qr.start(
                tenant: session.tenant, claims: session.claims, action: start.action, initiator: initiator).challenge
            watch(challenge, tenant: session.tenant, socket: socket)
            send(socket, QRCodeSocket.ChallengeCreated(
                challengeId: challenge.id, expiresAt: Timestamp.iso8601(milliseconds: challenge.expiresAt),
                qrPayload: QRPayload(tenantID: session.tenant.id, challengeID: challenge.id).text))
        } catch let error as AssentError {
            send(socket, QRCodeSocket.Failure(
                errorCode: error.code.wire, errorDescription: error.reason, retryAfter: error.retryAfterSeconds))
        } catch {
            logger.log(.error, "websocket challenge failed", ["error": .string(String(describing: error))])
            send(socket, QRCodeSocket.Failure(
                errorCode: AssentError.Code.internalError.wire, errorDescription: "Something went wrong inside Assent."))
        }
    }

    /// Follows `challenge` for `socket`, dropping whatever the socket watched before.
    private func watch(_ challenge: Challenge, tenant: Tenant, socket: WebSocket) {
        let subscription = events.subscribe(tenantID: tenant.id, challengeID: challenge.id) { [weak self, qr] changed in
            guard let self else { return }
            switch changed.state {
            case .claimed:
                self.send(socket, QRCodeSocket.StateChange(challengeId: changed.id, state: "claimed"))
            case .approved:
                Task {
                    let token = try? await qr.accessToken(changed, tenant: tenant)
                    self.send(socket, QRCodeSocket.StateChange(
                        challengeId: changed.id, state: "approved", accessToken: token))
                }
            case .denied:
                self.send(socket, QRCodeSocket.StateChange(challengeId: changed.id, state: "rejected"))
            case .pending:
                break
            }
        }
        let previous = sessions.withLock { sessions -> ChallengeEvents.Subscription? in
            let previous = sessions[socket.id]?.watching
            sessions[socket.id]?.watching = subscription
            return previous
        }
        if let previous { events.unsubscribe(previous) }
    }

    func didClose(_ socket: WebSocket, code: UInt16) async {
        if let subscription = sessions.withLock({ $0.removeValue(forKey: socket.id)?.watching }) {
            events.unsubscribe(subscription)
        }
    }

    /// Writes `message` (sorted keys, slashes unescaped: what the web SDK has always been sent).
    private func send(_ socket: WebSocket, _ message: some WireEncodable) {
        socket.send(text: String(decoding: JSONWriter.encode(message), as: UTF8.self))
    }
}
