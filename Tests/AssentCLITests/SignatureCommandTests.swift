import AssentCrypto
import Foundation
import Testing
import AssentTestSupport

/// `assent signature compute` run as a real process: known answers from the official vectors and the reference's
/// worked example, all six types, and clear usage errors.
@Suite struct SignatureCommandTests {
    private struct VectorFile: Decodable {
        struct Case: Decodable {
            let input: [String: String]
            let output: [String: String]
        }
        let data: [Case]
    }

    private func cases(_ name: String) throws -> [VectorFile.Case] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/powerauth/\(name).json")
        return try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url)).data
    }

    private func arguments(_ input: [String: String], type: String? = nil) -> [String] {
        ["signature", "compute", "--possession-key", input["signaturePossessionKey"]!, "--knowledge-key", input["signatureKnowledgeKey"]!,
         "--biometry-key", input["signatureBiometryKey"]!, "--counter-data", input["counterData"]!,
         "--type", type ?? input["signatureType"]!, "--data", input["data"]!]
    }

    /// Every 50th case of each signature file (the in-process tests run all of them), so each type, format and
    /// component length goes through the command line without spawning hundreds of processes.
    @Test func printsTheVectorSignatures() throws {
        var checked = 0
        for (file, extra) in [("signatures-v31", [String]()), ("signatures-v3", ["--format", "decimal"]), ("signatures-offline", ["--format", "decimal"])] {
            for (index, vector) in try cases(file).enumerated() where index % 50 == 5 || (file == "signatures-offline" && index % 25 == 14) {
                var args = arguments(vector.input) + extra
                if let length = vector.input["signatureComponentLength"] { args += ["--component-length", length] }
                let result = try CLIProcess.run(args)
                #expect(result.status == 0, "\(file)[\(index)]: \(result.stderr)")
                #expect(result.stdout == vector.output["signature"]! + "\n", "\(file)[\(index)]")
                checked += 1
            }
        }
        #expect(checked == 24)
    }

    /// All six types over the reference's worked example (§5.3); the one-factor knowledge and biometry types equal a
    /// possession signature made with that factor's key.
    @Test func computesAllSixTypes() throws {
        let keys = try PowerAuthDerivedKeys(masterSecret: Base64.decode("+miyqJykCZQTNpAzn+ZShw==")!)
        let data = PowerAuthRequestData.normalized(
            method: "POST", uriID: "/pa/signature/validate", nonce: Array(0x10...0x1F),
            body: Array(#"{"requestObject":{"amount":100}}"#.utf8), applicationSecret: "ZGVmZ2hpamtsbW5vcHFycw==")
        let input = ["signaturePossessionKey": Base64.encode(keys.possession), "signatureKnowledgeKey": Base64.encode(keys.knowledge),
                     "signatureBiometryKey": Base64.encode(keys.biometry), "counterData": "hkIpYfIqQsMrj1Nbuh/BbA==",
                     "data": Base64.encode(data)]
        let expected = [
            "possession": "SDTH3S1Dwqj3MjIIvsB1vw==",
            "possession_knowledge": "SDTH3S1Dwqj3MjIIvsB1v7i+38EJqanYv5sejFAFTbo=",
            "possession_biometry": "SDTH3S1Dwqj3MjIIvsB1vxY9ZWdVWiGWofTPjJtOnUE=",
            "possession_knowledge_biometry": "SDTH3S1Dwqj3MjIIvsB1v7i+38EJqanYv5sejFAFTboG1Nx7Ta40xUiEDM1JzYeL",
        ]
        for (type, signature) in expected {
            #expect(try CLIProcess.run(arguments(input, type: type)).stdout == signature + "\n", "\(type)")
        }
        let decimal = try CLIProcess.run(arguments(input, type: "possession_knowledge_biometry") + ["--format", "decimal"])
        #expect(decimal.stdout == "52800447-42524858-38206347\n")
        for (type, key) in [("knowledge", keys.knowledge), ("biometry", keys.biometry)] {
            let alone = try CLIProcess.run(["signature", "compute", (type == "knowledge" ? "--knowledge-key" : "--biometry-key"),
                                            Base64.encode(key), "--counter-data", input["counterData"]!, "--type", type,
                                            "--data", input["data"]!])
            let asPossession = try PowerAuthSignature.compute(
                type: .possession, keys: PowerAuthSignatureKeys(possession: key), counterData: Base64.decode(input["counterData"]!)!, data: data)
            #expect(alone.status == 0 && alone.stdout == asPossession + "\n", "\(type)")
        }
        let json = try CLIProcess.run(arguments(input, type: "possession") + ["--json"])
        #expect(try json.object()["signature"] as? String == expected["possession"])
    }

    @Test func badInputIsAClearUsageError() throws {
        let good = ["--possession-key", Base64.encode([UInt8](repeating: 1, count: 16)), "--counter-data",
                    Base64.encode([UInt8](repeating: 2, count: 16)), "--data", ""]
        for (extra, message) in [
            (["--type", "possession_biometry"], "needs --biometry-key"),
            (["--type", "everything"], "--type must be one of"),
            (["--type", "possession", "--format", "decimal", "--component-length", "9"], "--component-length must be"),
            (["--type", "possession", "--format", "hex"], "--format must be base64 or decimal"),
            (["--type", "possession", "--component-length", "6"], "applies only to --format decimal"),
            (["--type", "possession", "--knowledge-key", "AAAA"], "must be Base64 of 16 bytes"),
            (["--type", "possession", "--knowledge-key", "not base64!"], "is not Base64"),
        ] {
            let result = try CLIProcess.run(["signature", "compute"] + good + extra)
            #expect(result.status == 2, "\(extra)")
            #expect(result.stdout.isEmpty, "\(extra)")
            #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
        }
        let missing = try CLIProcess.run(["signature", "compute", "--type", "possession"])
        #expect(missing.status == 2 && missing.stderr.contains("--counter-data"))
    }
}
