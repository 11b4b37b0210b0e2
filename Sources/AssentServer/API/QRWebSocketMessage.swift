import AssentServerCore
package import AssentWire
import Foundation

/// What a `CREATE_CHALLENGE` message of the QR page's WebSocket carries, read into the HTTP start's request.
package enum QRWebSocketMessage {
    /// The message's `data` as the HTTP start's request. The WebSocket names the action `actionCode` (the HTTP body
    /// `action`) and adds `challengeType`, which must be `QR_CODE`; everything else is the request type's rules.
    package static func startRequest(_ data: Any?, decoder: any RequestDecoding) throws -> StartQRChallengeRequest {
        var fields: [String: Any]
        switch data {
        case nil, is NSNull: fields = [:]
        case let object as [String: Any]: fields = object
        default: throw AssentError(.invalidRequest, "data must be a JSON object.")
        }
        if let type = fields.removeValue(forKey: "challengeType"), type as? String != "QR_CODE" {
            throw AssentError(.invalidRequest, "challengeType must be QR_CODE.")
        }
        if let action = fields.removeValue(forKey: "actionCode") { fields["action"] = action }
        guard let json = try? JSONSerialization.data(withJSONObject: fields) else {
            throw AssentError(.invalidRequest, "data must be a JSON object.")
        }
        return try decoder.decode(StartQRChallengeRequest.self, object: Array(json))
    }
}
