import AssentCrypto
import Testing

/// The worked HTTP example of the PowerAuth reference (§5.3): normalization, all four online types in both formats,
/// the counter step and the knowledge-key protection.
@Suite struct PowerAuthWorkedExampleTests {
    let keys: PowerAuthDerivedKeys
    let counter = Base64.decode("hkIpYfIqQsMrj1Nbuh/BbA==")!
    let data: [UInt8]

    init() throws {
        keys = try PowerAuthDerivedKeys(masterSecret: Base64.decode("+miyqJykCZQTNpAzn+ZShw==")!)
        data = PowerAuthRequestData.normalized(
            method: "POST", uriID: "/pa/signature/validate", nonce: Array(0x10...0x1F),
            body: Array(#"{"requestObject":{"amount":100}}"#.utf8), applicationSecret: "ZGVmZ2hpamtsbW5vcHFycw==")
    }

    @Test func normalizedData() {
        let expected = "POST&L3BhL3NpZ25hdHVyZS92YWxpZGF0ZQ==&EBESExQVFhcYGRobHB0eHw==&eyJyZXF1ZXN0T2JqZWN0Ijp7ImFtb3VudCI6MTAwfX0=&ZGVmZ2hpamtsbW5vcHFycw=="
        #expect(String(decoding: data, as: UTF8.self) == expected)
    }

    @Test(arguments: [
        (PowerAuthSignatureType.possession, "SDTH3S1Dwqj3MjIIvsB1vw==", "52800447"),
        (.possessionKnowledge, "SDTH3S1Dwqj3MjIIvsB1v7i+38EJqanYv5sejFAFTbo=", "52800447-42524858"),
        (.possessionBiometry, "SDTH3S1Dwqj3MjIIvsB1vxY9ZWdVWiGWofTPjJtOnUE=", "52800447-58136897"),
        (.possessionKnowledgeBiometry, "SDTH3S1Dwqj3MjIIvsB1v7i+38EJqanYv5sejFAFTboG1Nx7Ta40xUiEDM1JzYeL", "52800447-42524858-38206347"),
    ])
    func signatures(type: PowerAuthSignatureType, base64: String, decimal: String) throws {
        let all = keys.signatureKeys
        #expect(try PowerAuthSignature.compute(type: type, keys: all, counterData: counter, data: data, format: .base64) == base64)
        #expect(try PowerAuthSignature.compute(type: type, keys: all, counterData: counter, data: data, format: .decimal8) == decimal)
    }

    @Test func counterStep() {
        #expect(Base64.encode(PowerAuthCounter.next(counter)) == "supU5C6gMLkLgXGd3oDe3A==")
    }

    @Test func knowledgeKeyProtection() throws {
        let password = Array("1234".utf8)
        let salt = Array(UInt8(0)...UInt8(15))
        #expect(Base64.encode(try PowerAuthKnowledgeKey.passwordKey(password: password, salt: salt)) == "nH1TZDfncjlrXtLrYnEI9Q==")
        let protected = try PowerAuthKnowledgeKey.protect(keys.knowledge, password: password, salt: salt)
        #expect(Base64.encode(protected) == "BHflHuWaXTJAouTq9u5nNQ==")
        #expect(try PowerAuthKnowledgeKey.unprotect(protected, password: password, salt: salt) == keys.knowledge)
        // A wrong password is not detected locally: it yields a different 16-byte key.
        let wrong = try PowerAuthKnowledgeKey.unprotect(protected, password: Array("1235".utf8), salt: salt)
        #expect(wrong.count == 16 && wrong != keys.knowledge)
    }
}
