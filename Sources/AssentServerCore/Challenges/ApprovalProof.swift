/// What an approval carries to prove a factor: the header and what it signs.
package struct ApprovalProof: Sendable {
    /// The `X-PowerAuth-Authorization` value, if sent.
    var header: String?
    /// The request path (the uriId the device signs).
    var uriID: String
    /// The raw request body.
    var body: [UInt8]

    /// What one request carries: its `X-PowerAuth-Authorization` header (if sent), its path and its raw body.
    package init(header: String?, uriID: String, body: [UInt8]) {
        self.header = header
        self.uriID = uriID
        self.body = body
    }
}
