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
        #expect(findings.map(\.subject) == ["listen", "master key", "database", "tls", "web root"])
        #expect(findings.allSatisfy { $0.level == .ok }, "\(findings)")
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
