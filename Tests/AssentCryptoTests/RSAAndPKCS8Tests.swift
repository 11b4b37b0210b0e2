import AssentCrypto
import AssentWire
import Foundation
import Testing

/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) and PKCS#8 key import, checked against the `openssl` tool: PKCS#1 v1.5 is
/// deterministic, so a signature openssl makes with the same key is a known answer ours must equal byte for byte.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct RSAAndPKCS8Tests {
    static func openssl(_ arguments: [String]) throws -> Int32 {
        try InteroperabilityTests.run(arguments)
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    // RSA is the server's (Google service-account assertions) and exists only with the OpenSSL backend (Linux).
#if os(Linux)
    @Test func `an RS256 signature equals openssl's for the same key and message, and openssl verifies our JWT`() throws {
        let directory = try InteroperabilityTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("key.pem")
        let publicFile = directory.appendingPathComponent("public.pem")
        #expect(try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile.path]) == 0)
        #expect(try Self.openssl(["pkey", "-in", keyFile.path, "-pubout", "-out", publicFile.path]) == 0)
        let key = try RSA.PrivateKey(pkcs8PEM: try Self.text(keyFile))

        let message = directory.appendingPathComponent("message.txt")
        try Data("assent rs256 known answer".utf8).write(to: message)
        let expectedFile = directory.appendingPathComponent("expected.sig")
        #expect(try Self.openssl(["dgst", "-sha256", "-sign", keyFile.path, "-out", expectedFile.path, message.path]) == 0)
        let expected = [UInt8](try Data(contentsOf: expectedFile))
        #expect(try key.signature(for: Array("assent rs256 known answer".utf8)) == expected)

        let token = try JWT.sign(payload: Array(#"{"iss":"a","exp":4102444800}"#.utf8), using: .rs256(key), keyID: "k1")
        let parts = token.split(separator: ".").map(String.init)
        let input = directory.appendingPathComponent("input.txt")
        let signature = directory.appendingPathComponent("jwt.sig")
        try Data((parts[0] + "." + parts[1]).utf8).write(to: input)
        try Data(try #require(Base64.decodeURL(parts[2]))).write(to: signature)
        #expect(try Self.openssl(["dgst", "-sha256", "-verify", publicFile.path, "-signature", signature.path, input.path]) == 0)
        try Data((parts[0] + "." + parts[1] + "x").utf8).write(to: input)
        #expect(try Self.openssl(["dgst", "-sha256", "-verify", publicFile.path, "-signature", signature.path, input.path]) != 0)

        // Our own verifier accepts it with the public key and refuses it under another algorithm's key.
        let publicKey = try key.publicKey
        #expect(try JWT.verify(token, using: .rs256(publicKey), now: 0) == Array(#"{"iss":"a","exp":4102444800}"#.utf8))
        #expect(throws: CryptoError(.invalidToken, "")) {
            try JWT.verify(token, using: .es256(P256.PrivateKey().publicKey), now: 0)
        }
        #expect(JWT.unverifiedKeyID(token) == "k1")
    }

    @Test func `RSA keys under 2048 bits and non-RSA keys are refused`() throws {
        let directory = try InteroperabilityTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = directory.appendingPathComponent("small.pem")
        #expect(try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", small.path]) == 0)
        #expect(throws: CryptoError(.invalidKey, "")) { try RSA.PrivateKey(pkcs8PEM: try Self.text(small)) }
        let ec = directory.appendingPathComponent("ec.pem")
        #expect(try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", ec.path]) == 0)
        #expect(throws: CryptoError(.invalidKey, "")) { try RSA.PrivateKey(pkcs8PEM: try Self.text(ec)) }
        #expect(throws: CryptoError(.invalidKey, "")) { try RSA.PrivateKey(pkcs8PEM: "not a key") }
    }

#endif

    @Test func `a P-256 .p8 key made by openssl imports, and openssl verifies our ES256 JWT with its public key`() throws {
        let directory = try InteroperabilityTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey.p8")
        let publicFile = directory.appendingPathComponent("public.pem")
        #expect(try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile.path]) == 0)
        #expect(try Self.openssl(["pkey", "-in", keyFile.path, "-pubout", "-out", publicFile.path]) == 0)
        let key = try P256.PrivateKey(pkcs8PEM: try Self.text(keyFile))
        #expect(PEM.der(from: try Self.text(publicFile), label: "PUBLIC KEY") == key.publicKey.spkiDER)
        let p384 = directory.appendingPathComponent("p384.pem")
        #expect(try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", p384.path]) == 0)
        #expect(throws: CryptoError(.invalidKey, "")) { try P256.PrivateKey(pkcs8PEM: try Self.text(p384)) }
    }
}
