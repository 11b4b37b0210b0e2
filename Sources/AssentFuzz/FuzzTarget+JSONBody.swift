import AssentServer
import AssentWire

extension FuzzTarget {
    /// A request body as the server reads it: the bytes through ``WireRequestDecoding`` (the server's) into every
    /// `AssentWire` request type, and as a QR WebSocket `CREATE_CHALLENGE` message (its `data` into the QR start's
    /// request).
    static let jsonBody = FuzzTarget(name: "json-body") { bytes in
        let decoder = WireRequestDecoding()
        for type in requestTypes {
            _ = try? decoder.decode(type, object: bytes)
        }
        if let message = try? QRWebSocketMessage.createChallenge(bytes) {
            _ = try? QRWebSocketMessage.startRequest(message.data, decoder: decoder)
        }
    }

    /// Every body the server decodes.
    private static let requestTypes: [any WireDecodable.Type] = [
        TrackRequest.self, UpdatePushSettingsRequest.self, UpdateActionRequest.self, ValidateRequest.self,
        UpdateUserRequest.self, EnrollAuthenticatorRequest.self, UpdateChallengeRequest.self,
        StartPushChallengeRequest.self, VerifyPushRequest.self, StartQRChallengeRequest.self, VerifyQRRequest.self,
        ClaimChallengeRequest.self, AddCredentialRequest.self, RemoveCredentialRequest.self,
        UpdateCredentialRequest.self, CreateActivationRequest.self, ActivationStatusRequest.self,
        VaultUnlockRequest.self, VerifySignatureRequest.self,
    ]
}
