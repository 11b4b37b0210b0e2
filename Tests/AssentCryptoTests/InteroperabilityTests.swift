import AssentCrypto
import AssentWire
import AssentTestSupport
import Foundation
import Testing

/// Cross-checks against the `openssl` command-line tool, which parses keys and signatures with its own
/// code paths (PEM/DER decoders, `dgst`) rather than this module's Swift conversions. Skipped where the
/// tool is not installed.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct InteroperabilityTests {
    static let openssl = "/usr/bin/openssl"

    /// Runs `openssl` with `arguments`; returns its exit status.
    static func run(_ arguments: [String]) throws -> Int32 {
        try ProcessRunner.run(openssl, arguments, timeout: 60).status
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-crypto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func pem(_ der: [UInt8], label: String) -> String {
        let body = Base64.encode(der)
        var lines: [String] = []
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<end]))
            index = end
        }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }

    /// An ES256 JWT's raw r||s signature, converted to DER, verifies with `openssl dgst` against our SPKI
    /// export; a changed signing input does not.
    @Test func opensslVerifiesOurES256TokenSignature() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = P256.PrivateKey()
        let token = try JWT.sign(payload: Array(#"{"sub":"interop","exp":4102444800}"#.utf8), using: .es256(key))
        let parts = token.split(separator: ".").map(String.init)
        let raw = try #require(Base64.decodeURL(parts[2]))
        let der = try #require(ECDSASignature.der(fromRaw: raw))

        let publicKeyFile = directory.appendingPathComponent("public.pem")
        let signatureFile = directory.appendingPathComponent("signature.der")
        let inputFile = directory.appendingPathComponent("input.txt")
        let tamperedFile = directory.appendingPathComponent("tampered.txt")
        try Self.pem(key.publicKey.spkiDER, label: "PUBLIC KEY").write(to: publicKeyFile, atomically: true, encoding: .utf8)
        try Data(der).write(to: signatureFile)
        try Data((parts[0] + "." + parts[1]).utf8).write(to: inputFile)
        try Data((parts[0] + "." + parts[1] + "x").utf8).write(to: tamperedFile)

        let verify = ["dgst", "-sha256", "-verify", publicKeyFile.path, "-signature", signatureFile.path]
        #expect(try Self.run(verify + [inputFile.path]) == 0)
        #expect(try Self.run(verify + [tamperedFile.path]) != 0)
    }

    /// A key and signature made by `openssl` import and verify here (SPKI DER parsing, DER signatures).
    @Test func weVerifyOpensslSignatures() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let privateKeyFile = directory.appendingPathComponent("private.pem")
        let publicKeyFile = directory.appendingPathComponent("public.der")
        let messageFile = directory.appendingPathComponent("message.txt")
        let signatureFile = directory.appendingPathComponent("signature.der")
        let message = Array("signed by the openssl tool".utf8)
        try Data(message).write(to: messageFile)
        #expect(try Self.run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", privateKeyFile.path]) == 0)
        #expect(try Self.run(["ec", "-in", privateKeyFile.path, "-pubout", "-outform", "DER", "-out", publicKeyFile.path]) == 0)
        #expect(try Self.run(["dgst", "-sha256", "-sign", privateKeyFile.path, "-out", signatureFile.path, messageFile.path]) == 0)

        let spki = try [UInt8](Data(contentsOf: publicKeyFile))
        let signature = try [UInt8](Data(contentsOf: signatureFile))
        let publicKey = try P256.PublicKey(spkiDER: spki)
        #expect(publicKey.spkiDER == spki)
        #expect(publicKey.isValidSignature(signature, for: message))
        #expect(!publicKey.isValidSignature(signature, for: message + [0]))
    }
}

@Suite struct ConcurrencyTests {
    /// One parsed public key is shared by many concurrent verifications (it is Sendable and immutable).
    @Test func sharedPublicKeyVerifiesConcurrently() async throws {
        let key = P256.PrivateKey()
        let publicKey = key.publicKey
        let messages = (0..<16).map { Array("message \($0)".utf8) }
        let signatures = try messages.map { try key.signature(for: $0) }
        let results = await withTaskGroup(of: Bool.self) { group in
            for round in 0..<64 {
                let index = round % messages.count
                let tampered = round % 4 == 0
                group.addTask {
                    let message = tampered ? messages[index] + [1] : messages[index]
                    return publicKey.isValidSignature(signatures[index], for: message) != tampered
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 })
    }
}
