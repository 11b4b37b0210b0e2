import AssentServerCore
package import AssentWire

/// Reading the QR page's WebSocket messages (``QRCodeSocket``): the message by its own table over ``JSONReader``
/// (strict), and its `data` into the HTTP start's request by the server's decoder, so that both ways in keep one set
/// of rules and answer the same errors.
package enum QRWebSocketMessage {
    /// The message `text` (read by ``JSONReader``) as a ``QRCodeSocket/CreateChallenge``; anything else — no JSON (or
    /// JSON the strict reader refuses), no object, another type — is refused with
    /// ``QRCodeSocket/CreateChallenge/refusal``, a `data` that is no object with its own reason.
    package static func createChallenge(_ text: [UInt8]) throws(WireDecodingError) -> QRCodeSocket.CreateChallenge {
        let fields: JSONObjectFields
        do {
            fields = try JSONObjectFields(json: text)
        } catch {
            throw WireDecodingError(QRCodeSocket.CreateChallenge.refusal)
        }
        return try QRCodeSocket.CreateChallenge(reading: fields)
    }

    /// The message's `data` as the HTTP start's request. The WebSocket names the action `actionCode` (the HTTP body
    /// `action`) and adds `challengeType`, which must be `QR_CODE`; everything else is the request type's rules.
    package static func startRequest(
        _ data: [String: JSONValue]?, decoder: any RequestDecoding
    ) throws -> StartQRChallengeRequest {
        var fields = data ?? [:]
        if let type = fields.removeValue(forKey: "challengeType"), type != .string("QR_CODE") {
            throw AssentError(.invalidRequest, "challengeType must be QR_CODE.")
        }
        if let action = fields.removeValue(forKey: "actionCode") { fields["action"] = action }
        return try decoder.decode(StartQRChallengeRequest.self, object: JSONWriter.encode(fields))
    }
}
