/// SHA-1, for the protocols that still require it: the WebSocket handshake's `Sec-WebSocket-Accept`
/// (RFC 6455 §4.2.2). Not for signatures or anything that needs collision resistance, hence `package` only.
package enum SHA1: Sendable {
    /// The digest size in bytes.
    package static let byteCount = 20

    /// Returns the 20-byte SHA-1 digest of `data`.
    package static func hash(_ data: [UInt8]) -> [UInt8] {
        Primitives.sha1(data)
    }
}
