import Testing
@testable import assent_bench

@Suite struct ParsingTests {
    private func response(_ json: String) -> HTTPResponse { HTTPResponse(status: 200, body: Array(json.utf8)) }

    @Test func findsTheTokenKeyNotAValueThatLooksLikeIt() {
        let body = response(#"{"state":"token", "token" : "a.b\/c", "isEnrolled":false}"#)
        #expect(body.jsonString(forKey: "token") == "a.b/c")
        #expect(body.hasJSONKey("isEnrolled"))
        #expect(!body.hasJSONKey("isValid"))
        #expect(response(#"{"token":null}"#).jsonString(forKey: "token") == nil)
    }

    @Test func quotesJSONStrings() {
        #expect(JSONText.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
    }

    @Test func parsesURLs() throws {
        let plain = try Endpoint.parse("http://127.0.0.1:8080")
        #expect(plain == Endpoint.Parts(host: "127.0.0.1", port: 8080, basePath: "", hostHeader: "127.0.0.1:8080"))
        let prefixed = try Endpoint.parse("http://localhost:9/api/")
        #expect(prefixed.basePath == "/api")
        #expect(try Endpoint.parse("http://[::1]:81").hostHeader == "[::1]:81")
        #expect(throws: BenchError.usage("")) { try Endpoint.parse("https://127.0.0.1:1") }
        #expect(throws: BenchError.usage("")) { try Endpoint.parse("http://user:sk_live@127.0.0.1:1") }
    }

    @Test func credentialsInTheURLAreNeverEchoed() {
        do {
            _ = try Endpoint.parse("http://sk_live_secret@127.0.0.1:1")
            Issue.record("expected a usage error")
        } catch {
            #expect(!error.reason.contains("sk_live_secret"))
        }
    }

    @Test func parsesTheCommandLine() throws {
        let configuration = try BenchConfiguration.parse(
            ["--url", "http://127.0.0.1:1", "--scenario=track,validate", "--concurrency", "1, 32", "--duration", "0.5", "--json"],
            environment: ["ASSENT_BENCH_SECRET": "sk"])
        #expect(configuration.scenarios == ["track", "validate"])
        #expect(configuration.concurrencies == [1, 32])
        #expect(configuration.durationSeconds == 0.5)
        #expect(configuration.secret == "sk")
        #expect(configuration.json)
    }

    @Test func rejectsBadCommandLinesWithoutEchoingValues() {
        let base = ["--url", "http://127.0.0.1:1", "--secret", "sk_live_secret"]
        for extra in [["--concurrency", "0"], ["--scenario", "nope"], ["--duration", "-1"], ["--bogus=sk_live_secret"], ["sk_live_secret"]] {
            do {
                _ = try BenchConfiguration.parse(base + extra, environment: [:])
                Issue.record("expected \(extra) to be rejected")
            } catch {
                #expect(error.code == .usage)
                #expect(!error.reason.contains("sk_live_secret"))
            }
        }
        #expect(throws: BenchError.usage("")) { try BenchConfiguration.parse(["--url", "http://127.0.0.1:1"], environment: [:]) }
    }
}
