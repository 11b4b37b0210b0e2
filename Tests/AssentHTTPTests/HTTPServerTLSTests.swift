import AssentTestSupport
import Foundation
import Testing
@testable import AssentHTTP

/// HTTPS through libmicrohttpd's GnuTLS (``HTTPServer/Configuration/tls``), with certificates made by the openssl CLI
/// and the openssl and curl command-line clients as peers.
@Suite struct HTTPServerTLSTests {
    /// Self-signed P-256 certificates for 127.0.0.1 named `one` and `two`, and a key that is neither's.
    struct Files {
        let directory: TemporaryDirectory
        func cert(_ name: String) -> String { directory.file("\(name).pem") }
        func key(_ name: String) -> String { directory.file("\(name).key") }

        init() throws {
            directory = try TemporaryDirectory()
            for name in ["one", "two"] {
                _ = try ProcessRunner.output("/usr/bin/openssl", [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", directory.file("\(name).key"), "-out", directory.file("\(name).pem"), "-days", "1",
                    "-subj", "/CN=\(name)", "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            }
            _ = try ProcessRunner.output("/usr/bin/openssl", [
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", directory.file("stray.key"),
            ])
        }
    }

    static func router() -> Router {
        var router = Router()
        router.add("GET", "/hello") { _, _ in .json(200, Array(#"{"hello":"tls"}"#.utf8)) }
        return router
    }

    /// The subject line `openssl s_client` prints for the server's certificate, with the protocol it agreed on.
    static func handshake(port: Int, _ flags: [String]) async throws -> ProcessResult {
        try await offPool {
            try ProcessRunner.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)"] + flags)
        }
    }

    @Test func servesHTTPSWithTheCertificateAndRefusesTLS11() async throws {
        let files = try Files()
        let tls = try TLSCredentials(certificateFile: files.cert("one"), keyFile: files.key("one"))
        try await TestServer.with(Self.router(), configure: { $0.tls = tls }) { server in
            let body = try await offPool {
                try ProcessRunner.output("/usr/bin/curl", [
                    "-sS", "--cacert", files.cert("one"), "https://127.0.0.1:\(server.port)/hello",
                ])
            }
            #expect(body == #"{"hello":"tls"}"#)
            let modern = try await Self.handshake(port: server.port, ["-tls1_2"])
            #expect(modern.stdout.contains("subject=CN = one"))
            #expect(modern.stdout.contains("Protocol  : TLSv1.2"))
            let old = try await Self.handshake(port: server.port, ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"])
            #expect(old.status != 0)
            #expect(old.stdout.contains("Cipher is (NONE)"))
        }
    }

    @Test func reloadServesTheNewPairToNewHandshakesAndABadPairKeepsTheOld() async throws {
        let files = try Files()
        let tls = try TLSCredentials(certificateFile: files.cert("one"), keyFile: files.key("one"))
        try await TestServer.with(Self.router(), configure: { $0.tls = tls }) { server in
            #expect(try await Self.handshake(port: server.port, []).stdout.contains("subject=CN = one"))
            try tls.reload(certificateFile: files.cert("two"), keyFile: files.key("two"))
            #expect(try await Self.handshake(port: server.port, []).stdout.contains("subject=CN = two"))
            #expect(throws: HTTPServerError(.invalidTLSCredentials, "")) {
                try tls.reload(certificateFile: files.cert("one"), keyFile: files.key("stray"))
            }
            #expect(try await Self.handshake(port: server.port, []).stdout.contains("subject=CN = two"))
        }
    }

    @Test func unreadableEmptyOrMismatchedFilesAreRefusedWithTheirName() throws {
        let files = try Files()
        let empty = files.directory.file("empty.pem")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        for (cert, key, mentions) in [
            (files.directory.file("missing.pem"), files.key("one"), "cannot read the TLS certificate file"),
            (empty, files.key("one"), "is empty"),
            (files.cert("one"), files.key("stray"), "do not form a usable pair"),
            (files.key("one"), files.key("one"), "do not form a usable pair"),
        ] {
            do {
                _ = try TLSCredentials(certificateFile: cert, keyFile: key)
                Issue.record("\(cert) with \(key) was accepted")
            } catch {
                #expect(error.code == .invalidTLSCredentials)
                #expect(error.reason.contains(mentions), "\(error.reason)")
            }
        }
    }
}
