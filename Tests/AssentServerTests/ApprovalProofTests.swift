import AssentCrypto
import AssentHTTP
@testable import AssentServer
@testable import AssentServerCore
import AssentWire
import Testing

/// The handler turns a device's answer into the domain's ``ApprovalProof``: the `X-PowerAuth-Authorization` header
/// parsed (none when absent or empty, malformed with the parser's reason otherwise), over the request's path and raw
/// body. The core never sees the header text.
@Suite struct ApprovalProofTests {
    private func proof(header: String?) -> ApprovalProof {
        var headers = HTTPHeaders()
        if let header { headers.replace(PowerAuthAuthorizationHeader.name, header) }
        return ApprovalProof(HTTPRequest(
            method: "POST", path: "/v1/client/user-authenticators/push/challenge", headers: headers,
            body: Array(#"{"approved":true}"#.utf8)))
    }

    @Test func `no header and an empty one are no signature`() {
        for header in [nil, ""] {
            guard case .none = proof(header: header).signature else {
                Issue.record("\(String(describing: header)) was not read as no signature")
                continue
            }
        }
    }

    @Test func `a header that does not parse is kept as malformed with the parser's reason`() {
        let read = proof(header: "PowerAuth nonsense")
        guard case .malformed(let reason) = read.signature else {
            Issue.record("a malformed header was not read as malformed")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test func `a header that parses is the signature, over the path and the raw body`() throws {
        let header = PowerAuthAuthorizationHeader(
            activationID: "5c1ad3e4-1c6b-4a2e-9a70-6f5d5b8e2f10", applicationKey: Base64.encode([UInt8](repeating: 1, count: 16)),
            nonce: Base64.encode([UInt8](repeating: 2, count: 16)), signatureType: .possessionKnowledge,
            signature: Base64.encode([UInt8](repeating: 3, count: 32)))
        let read = proof(header: header.headerValue)
        guard case .signed(let parsed) = read.signature else {
            Issue.record("a valid header was not read as a signature: \(read.signature)")
            return
        }
        #expect(parsed.activationID == header.activationID && parsed.signatureType == .possessionKnowledge)
        #expect(read.uriID == "/v1/client/user-authenticators/push/challenge")
        #expect(read.body == Array(#"{"approved":true}"#.utf8))
    }
}
