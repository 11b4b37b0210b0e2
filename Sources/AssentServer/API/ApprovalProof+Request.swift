import AssentHTTP
import AssentServerCore
import AssentWire

extension ApprovalProof {
    /// What a device's answer carries: its `X-PowerAuth-Authorization` header, parsed (absent or empty: none), over
    /// the request's path and raw body.
    init(_ request: HTTPRequest) {
        let signature: Signature
        switch request.headers[PowerAuthAuthorizationHeader.name] {
        case nil, "":
            signature = .none
        case let value?:
            do {
                signature = .signed(try PowerAuthAuthorizationHeader(parsing: value))
            } catch {
                signature = .malformed(reason: error.reason)
            }
        }
        self.init(signature: signature, uriID: request.path, body: request.body)
    }
}
