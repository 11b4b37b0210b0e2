import Foundation
import AssentCrypto
import AssentWire
import Testing

/// `X-PowerAuth-Authorization` parsing and validation (PowerAuth's `PowerAuthSignatureHttpHeaderValidator` rules).
@Suite struct PowerAuthHeaderTests {
    let id = "0f1e2d3c-4b5a-4978-8a69-5b4c3d2e1f00"
    let key = Base64.encode([UInt8](repeating: 1, count: 16))
    let nonce = Base64.encode([UInt8](repeating: 2, count: 16))
    let signature = Base64.encode([UInt8](repeating: 3, count: 32))

    @Test func formattedHeadersParseBack() throws {
        let header = PowerAuthAuthorizationHeader(activationID: id, applicationKey: key, nonce: nonce,
                                                  signatureType: .possessionBiometry, signature: signature)
        #expect(try PowerAuthAuthorizationHeader(parsing: header.headerValue) == header)
        #expect(header.headerValue.hasPrefix("PowerAuth pa_version=\"3.3\", pa_activation_id=\"\(id)\""))
    }

    @Test func fieldsInAnyOrderQuotedOrBareAndAnUpperCaseID() throws {
        let value = "PowerAuth pa_signature=\"12345678-87654321\", pa_signature_type=possession_knowledge, "
            + "pa_nonce=\"\(nonce)\",pa_application_key=\"\(key)\" pa_activation_id=\"\(id.uppercased())\", pa_version=\"3.0\""
        let header = try PowerAuthAuthorizationHeader(parsing: value)
        #expect(header.activationID == id)
        #expect(header.signatureType == .possessionKnowledge)
        #expect(header.signatureFormat == .decimal8)
        #expect(header.nonceBytes == [UInt8](repeating: 2, count: 16))
    }

    @Test(arguments: [
        ("Bearer x", PowerAuthHeaderError.Code.malformed),
        ("PowerAuth pa_version=\"3.3\"", .missingField),
        ("version=\"2.1\"", .unsupportedVersion),
        ("id=\"not-a-uuid\"", .invalidActivationID),
        ("id=\"0f1e2d3c-4b5a-6978-8a69-5b4c3d2e1f00\"", .invalidActivationID),
        ("key=\"AAAA\"", .invalidApplicationKey),
        ("nonce=\"\(Base64.encode([UInt8](repeating: 0, count: 15)))\"", .invalidNonce),
        ("type=\"everything\"", .invalidSignatureType),
        ("signature=\"1234567\"", .invalidSignature),
        ("signature=\"12345678-1234\"", .invalidSignature),
        ("signature=\"\(Base64.encode([UInt8](repeating: 0, count: 20)))\"", .invalidSignature),
    ])
    func invalidHeadersAreRefusedWithAStableCode(change: String, code: PowerAuthHeaderError.Code) {
        var fields = ["version": "3.3", "id": id, "key": key, "nonce": nonce, "type": "possession", "signature": signature]
        var value: String
        if change.hasPrefix("Bearer") || change.hasPrefix("PowerAuth") {
            value = change
        } else {
            let parts = change.split(separator: "=", maxSplits: 1)
            fields[String(parts[0])] = String(parts[1]).trimmingCharacters(in: ["\""])
            value = "PowerAuth pa_version=\"\(fields["version"]!)\", pa_activation_id=\"\(fields["id"]!)\", "
                + "pa_application_key=\"\(fields["key"]!)\", pa_nonce=\"\(fields["nonce"]!)\", "
                + "pa_signature_type=\"\(fields["type"]!)\", pa_signature=\"\(fields["signature"]!)\""
        }
        #expect(throws: PowerAuthHeaderError(code, "")) { try PowerAuthAuthorizationHeader(parsing: value) }
    }
}
