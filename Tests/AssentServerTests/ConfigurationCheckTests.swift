import AssentServer
import AssentServerCore
import AssentStorage
import AssentTestSupport
import Foundation
import Testing

/// `assentd check-config` and `assentd --version`: what the check finds in-process, and the executable's exit codes.
@Suite struct ConfigurationCheckTests {
    /// A self-signed P-256 certificate and its key, made by the openssl CLI, plus a second key that is not its.
    static func tlsFiles(in directory: TemporaryDirectory) throws -> (cert: String, key: String, otherKey: String) {
        let cert = directory.file("cert.pem"), key = directory.file("key.pem"), other = directory.file("other.pem")
        _ = try ProcessRunner.output("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
            "-out", cert, "-days", "1", "-subj", "/CN=localhost",
        ])
        _ = try ProcessRunner.output("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", other])
        return (cert, key, other)
    }

    /// `arguments` on port 0: check-config binds the listen address for a moment, and the default 8420 may be held by
    /// a server running on this machine (test_newcomer.py covers a taken port).
    static func configuration(_ arguments: [String]) throws -> ServerConfiguration {
        try ServerConfiguration.parse(arguments: ["--listen", "127.0.0.1:0"] + arguments, environment: [:])
    }

    @Test func aMigratedDatabaseAKeyAndAMatchingTLSPairAreAllGood() async throws {
        let directory = try TemporaryDirectory()
        let tls = try Self.tlsFiles(in: directory)
        let database = directory.file("assent.sqlite")
        await (try DatabaseLocation(database).open(connections: 1)).close()
        var configuration = try Self.configuration([
            "--database", database, "--tls-cert", tls.cert, "--tls-key", tls.key, "--web-root", directory.path,
        ])
        _ = try configuration.loadMasterKey()
        configuration.webRoot = directory.path
        let findings = ConfigurationCheck(configuration: configuration).run()
        #expect(findings.map(\.subject) == ["listen", "master key", "database", "tls", "web root"]
            + Array(repeating: "attestation root", count: 3) + ["attestation status list"])
        #expect(findings.filter { $0.subject != "attestation status list" }.allSatisfy { $0.level == .ok }, "\(findings)")
        // No status list source is the default, noted: Android chains are then verified without revocation.
        #expect(findings.last?.level == .note && findings.last?.message.contains("revocationChecked false") == true)
    }

    @Test func aFreshDeploymentIsNotedAndNothingIsCreated() throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("data/assent.sqlite")
        let findings = ConfigurationCheck(configuration: try Self.configuration(["--database", database])).run()
        #expect(findings.filter { $0.level == .error }.isEmpty, "\(findings)")
        #expect(findings.first { $0.subject == "database" }?.level == .note)
        #expect(findings.first { $0.subject == "master key" }?.level == .note)
        #expect(!FileManager.default.fileExists(atPath: directory.file("data")), "the check creates nothing")
    }

    @Test func aKeyThatIsNotTheCertificatesIsAnError() throws {
        let directory = try TemporaryDirectory()
        let tls = try Self.tlsFiles(in: directory)
        let configuration = try Self.configuration([
            "--database", directory.file("a.sqlite"), "--tls-cert", tls.cert, "--tls-key", tls.otherKey,
        ])
        let finding = try #require(ConfigurationCheck(configuration: configuration).run().first { $0.subject == "tls" })
        #expect(finding.level == .error)
        #expect(finding.message.contains("do not form a usable pair"))
    }

    @Test func aWorldReadableMasterKeyIsAnError() throws {
        let directory = try TemporaryDirectory()
        let key = directory.file("master.key")
        try Data((Data(repeating: 7, count: 32).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o644)
        let findings = ConfigurationCheck(configuration: try Self.configuration([
            "--database", directory.file("a.sqlite"), "--master-key-file", key,
        ])).run()
        #expect(findings.first { $0.subject == "master key" }?.level == .error)
    }

    /// An SQLite file whose `schema_steps` holds `steps` (made with Python's sqlite3, not with Assent's migrations).
    static func database(withSteps steps: [Int], in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("steps.sqlite")
        let values = steps.map { "(\($0))" }.joined(separator: ",")
        _ = try ProcessRunner.output("/usr/bin/python3", ["-c", """
            import sqlite3; db = sqlite3.connect('\(path)'); db.execute('CREATE TABLE schema_steps (version INTEGER PRIMARY KEY)')
            db.execute('INSERT INTO schema_steps VALUES \(values)'); db.execute('PRAGMA user_version = \(steps.max() ?? 0)'); db.commit()
            """])
        return path
    }

    @Test func pendingSchemaStepsAreNotedAndAStepFromANewerBuildIsAnError() throws {
        let directory = try TemporaryDirectory()
        let older = try Self.database(withSteps: [1, 2, 3], in: directory)
        let status = try DatabaseLocation(older).schemaStatus()
        #expect(status.exists && status.pendingSteps.first == 4 && !status.pendingSteps.contains(3))
        let finding = ConfigurationCheck(configuration: try Self.configuration(["--database", older])).run()
            .first { $0.subject == "database" }
        #expect(finding?.level == .note && finding?.message.contains("pending") == true)

        try FileManager.default.removeItem(atPath: older)
        let newer = try Self.database(withSteps: [1, 2, 3, 9_999], in: directory)
        let refused = ConfigurationCheck(configuration: try Self.configuration(["--database", newer])).run()
            .first { $0.subject == "database" }
        #expect(refused?.level == .error && refused?.message.contains("9999") == true)
    }

    /// The pinned roots' SHA-256 (PinnedRoots' sources: Apple's Private PKI page, Google's roots.json), and an
    /// operator's root as `openssl x509 -fingerprint -sha256` computes it.
    @Test func theAttestationTrustAnchorsAreListedBySubjectAndSHA256() throws {
        let directory = try TemporaryDirectory()
        let roots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/attestation/test-authority/root.pem").path
        let fingerprint = try ProcessRunner.output("/usr/bin/openssl", ["x509", "-in", roots, "-noout", "-fingerprint", "-sha256"])
        let added = String(fingerprint.split(separator: "=").last ?? "").replacingOccurrences(of: ":", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        #expect(added.count == 64)
        let findings = ConfigurationCheck(configuration: try Self.configuration([
            "--database", directory.file("a.sqlite"), "--attestation-roots", roots,
        ])).run().filter { $0.subject == "attestation root" }
        #expect(findings.count == 4)
        #expect(findings.allSatisfy { $0.level == .ok })
        let messages = findings.map(\.message)
        #expect(messages[0].hasPrefix("pinned Apple") && messages[0].contains("Apple App Attestation Root CA")
            && messages[0].hasSuffix("1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932"))
        #expect(messages[1].hasPrefix("pinned Google") && messages[1].contains("f92009e853b6b045")
            && messages[1].hasSuffix("cedb1cb6dc896ae5ec797348bce9286753c2b38ee71ce0fbe34a9a1248800dfc"))
        #expect(messages[2].hasPrefix("pinned Google") && messages[2].contains("Key Attestation CA1")
            && messages[2].hasSuffix("6d9db4ce6c5c0b293166d08986e05774a8776ceb525d9e4329520de12ba4bcc0"))
        #expect(messages[3].hasPrefix("added by --attestation-roots") && messages[3].contains("Assent Test Attestation Root")
            && messages[3].hasSuffix(added))
    }

    @Test func aStatusListFileIsReadAndOneThatDoesNotParseIsAnError() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("status.json")
        try Data(#"{"entries": {"2c8cdddfd5e03bfc": {"status": "REVOKED", "reason": "KEY_COMPROMISE"}}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        func finding(_ arguments: [String]) throws -> ConfigurationCheck.Finding? {
            ConfigurationCheck(configuration: try Self.configuration(["--database", directory.file("a.sqlite")] + arguments))
                .run().first { $0.subject == "attestation status list" }
        }
        let good = try finding(["--android-attestation-status-file", file])
        #expect(good?.level == .ok && good?.message.contains("1 entries") == true)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try finding(["--android-attestation-status-file", file])?.level == .error)
        #expect(try finding(["--android-attestation-status-file", directory.file("missing.json")])?.level == .error)
        let url = try finding(["--android-attestation-status-url", "http://127.0.0.1:9/status"])
        #expect(url?.level == .ok && url?.message.contains("http://127.0.0.1:9/status") == true)
        #expect(throws: ServerConfiguration.Invalid.self) {
            try Self.configuration(["--android-attestation-status-url", "http://127.0.0.1:9/s", "--android-attestation-status-file", file])
        }
    }

    @Test func onlyOneOfTheTLSFlagsIsRefusedWhenParsing() throws {
        #expect(throws: ServerConfiguration.Invalid.self) { try Self.configuration(["--tls-cert", "/etc/hostname"]) }
        #expect(throws: ServerConfiguration.Invalid.self) {
            try Self.configuration(["--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent.key"])
        }
    }

    @Test func theExecutableExitsZeroWhenGoodAndNonZeroWithTheProblemNamed() throws {
        let assentd = try BuiltProduct.path("assentd")
        let directory = try TemporaryDirectory()
        let tls = try Self.tlsFiles(in: directory)
        let database = directory.file("assent.sqlite")
        let good = try ProcessRunner.run(assentd, ["check-config", "--database", database, "--tls-cert", tls.cert, "--tls-key", tls.key], environment: [:])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("the configuration is good"))
        let bad = try ProcessRunner.run(assentd, ["check-config", "--database", database, "--tls-cert", tls.cert, "--tls-key", tls.otherKey], environment: [:])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("error tls:"))
        #expect(bad.stderr.contains("1 problem found"))
        let unknown = try ProcessRunner.run(assentd, ["check-config", "--no-such-flag"], environment: [:])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option --no-such-flag"))
        #expect(!FileManager.default.fileExists(atPath: database), "check-config creates no database")
    }

    @Test func assentdAndTheCLIPrintOneVersion() throws {
        let server = try ProcessRunner.output(try BuiltProduct.path("assentd"), ["--version"])
        let cli = try ProcessRunner.output(try BuiltProduct.path("assent"), ["--version"])
        #expect(server.hasPrefix("assentd "))
        #expect(server.dropFirst("assentd ".count) == cli.dropFirst("assent ".count))
    }
}
