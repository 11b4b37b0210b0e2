import AssentWire

extension FuzzTarget {
    /// The `X-PowerAuth-Authorization` header. A header that parses writes itself out as a header that parses to the
    /// same fields.
    static let powerAuthHeader = FuzzTarget(name: "powerauth-header") { bytes in
        guard let header = try? PowerAuthAuthorizationHeader(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        _ = header.nonceBytes
        _ = header.signatureFormat
        let again = try? PowerAuthAuthorizationHeader(parsing: header.headerValue)
        precondition(again == header, "a parsed header does not survive its own headerValue")
    }
}
