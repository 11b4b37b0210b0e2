/// Close codes of RFC 6455 §7.4.1 that this server sends or reports.
package enum WebSocketCloseCode {
    /// 1000: the purpose of the connection is fulfilled.
    package static let normalClosure: UInt16 = 1000
    /// 1001: the server is shutting down (or the client is leaving the page).
    package static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the protocol (unmasked or malformed frame, bad control frame, ...).
    package static let protocolError: UInt16 = 1002
    /// 1003: a message type this server does not accept (binary).
    package static let unsupportedData: UInt16 = 1003
    /// 1005: reported only: the close frame carried no code.
    package static let noStatusReceived: UInt16 = 1005
    /// 1006: reported only: the connection ended without a close handshake.
    package static let abnormalClosure: UInt16 = 1006
    /// 1007: a text message that is not valid UTF-8.
    package static let invalidPayload: UInt16 = 1007
    /// 1008: a message that violates the application's policy.
    package static let policyViolation: UInt16 = 1008
    /// 1009: a message larger than the configured cap.
    package static let messageTooBig: UInt16 = 1009
    /// 1011: the server hit an unexpected condition.
    package static let internalError: UInt16 = 1011

    /// Whether `code` may be sent in a close frame (RFC 6455 §7.4): 1000–1003,
    /// 1007–1014 and 3000–4999.
    package static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
