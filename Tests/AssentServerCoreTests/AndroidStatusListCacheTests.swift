import AssentAttestation
import AssentLog
@testable import AssentServerCore
import AssentSync
import Testing

/// Google's Android attestation status list as the server keeps it: read only while a tenant uses Android
/// attestation, refreshed hourly on a fake clock, the last good copy kept through bad reads (logged and counted), not
/// used past seven days.
@Suite struct AndroidStatusListCacheTests {
    /// A source answering what the test sets, counting its reads.
    final class FakeSource: AndroidStatusListSource, Sendable {
        let answer = AssentLock<Result<String, AndroidStatusListFetchFailed>>(.failure(AndroidStatusListFetchFailed("unset")))
        let reads = AssentLock(0)
        var location: String { "fake" }

        func read() async throws -> [UInt8] {
            reads.withLock { $0 += 1 }
            return Array(try answer.withLock { $0 }.get().utf8)
        }

        func serve(_ json: String) { answer.withLock { $0 = .success(json) } }
        func fail(_ reason: String) { answer.withLock { $0 = .failure(AndroidStatusListFetchFailed(reason)) } }
        var readCount: Int { reads.withLock { $0 } }
    }

    /// What the fake clock, the tenants and the log hold.
    final class World: Sendable {
        let now = AssentLock<Int64>(1_780_272_000_000)
        let used = AssentLock(true)
        let logged = AssentLock<[String]>([])
    }

    final class Fixture: Sendable {
        let source = FakeSource()
        let world: World
        let metrics = DomainMetrics()
        let cache: AndroidStatusListCache

        init() {
            let world = World()
            self.world = world
            cache = AndroidStatusListCache(
                source: source, inUse: { world.used.withLock { $0 } }, clock: WallClock { world.now.withLock { $0 } },
                logger: Logger(minimumLevel: .info, sink: { line in world.logged.withLock { $0.append(line) } }),
                metrics: metrics)
        }

        func advance(seconds: Int64) { world.now.withLock { $0 += seconds * 1000 } }
        var logged: [String] { world.logged.withLock { $0 } }
        func use(_ used: Bool) { world.used.withLock { $0 = used } }
    }

    static func list(revoking serial: String) -> String {
        #"{"entries": {"\#(serial)": {"status": "REVOKED", "reason": "KEY_COMPROMISE"}}}"#
    }

    @Test func `nothing is read while no tenant uses Android attestation`() async {
        let fixture = Fixture()
        fixture.use(false)
        fixture.source.serve(Self.list(revoking: "0a"))
        for _ in 0..<3 {
            #expect(await fixture.cache.refreshIfDue() == .unused)
            fixture.advance(seconds: 7200)
        }
        #expect(fixture.source.readCount == 0)
        #expect(fixture.cache.current() == nil)
        fixture.use(true)
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        #expect(fixture.source.readCount == 1)
        #expect(fixture.cache.current()?.status(ofSerial: "0A") == .revoked)
    }

    @Test func `a good copy is refreshed hourly and not before`() async {
        let fixture = Fixture()
        fixture.source.serve(Self.list(revoking: "0a"))
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        fixture.source.serve(Self.list(revoking: "0b"))
        fixture.advance(seconds: 3599)
        #expect(await fixture.cache.refreshIfDue() == .notDue)
        #expect(fixture.cache.current()?.status(ofSerial: "0b") == nil)
        fixture.advance(seconds: 1)
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        #expect(fixture.cache.current()?.status(ofSerial: "0b") == .revoked)
        #expect(fixture.cache.current()?.status(ofSerial: "0a") == nil)
        #expect(fixture.source.readCount == 2)
        #expect(fixture.metrics.androidStatusListFetchCount(.ok) == 2)
    }

    @Test func `a failed or unparsable read keeps the last good copy, is logged and counted, and is retried sooner`() async {
        let fixture = Fixture()
        fixture.source.serve(Self.list(revoking: "0a"))
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        fixture.advance(seconds: 3600)
        fixture.source.fail("HTTP 503")
        #expect(await fixture.cache.refreshIfDue() == .failed)
        #expect(fixture.cache.current()?.status(ofSerial: "0a") == .revoked)
        fixture.advance(seconds: 299)
        #expect(await fixture.cache.refreshIfDue() == .notDue)
        fixture.advance(seconds: 1)
        fixture.source.serve("{\"entries\": [1, 2]}")
        #expect(await fixture.cache.refreshIfDue() == .failed)
        #expect(fixture.cache.current()?.status(ofSerial: "0a") == .revoked)
        #expect(fixture.metrics.androidStatusListFetchCount(.failed) == 2)
        #expect(fixture.metrics.androidStatusListFetchCount(.ok) == 1)
        let warnings = fixture.logged.filter { $0.contains("not refreshed") }
        #expect(warnings.count == 2)
        #expect(warnings[0].contains("HTTP 503") && warnings[1].contains("does not parse"))
    }

    @Test func `there is no copy before the first good read`() async {
        let fixture = Fixture()
        fixture.source.fail("connect_failed")
        #expect(await fixture.cache.refreshIfDue() == .failed)
        #expect(fixture.cache.current() == nil)
        #expect(fixture.cache.fetchedAt == nil)
        fixture.advance(seconds: 300)
        fixture.source.serve(Self.list(revoking: "0a"))
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        #expect(fixture.cache.current() != nil)
    }

    @Test func `a copy older than seven days is not used`() async {
        let fixture = Fixture()
        fixture.source.serve(Self.list(revoking: "0a"))
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        fixture.source.fail("HTTP 500")
        fixture.advance(seconds: 7 * 86_400)
        #expect(fixture.cache.current() != nil, "seven days old is still used")
        #expect(await fixture.cache.refreshIfDue() == .failed)
        fixture.advance(seconds: 1)
        #expect(fixture.cache.current() == nil)
        fixture.advance(seconds: 300)
        fixture.source.serve(Self.list(revoking: "0c"))
        #expect(await fixture.cache.refreshIfDue() == .fetched)
        #expect(fixture.cache.current()?.status(ofSerial: "0c") == .revoked)
    }

    @Test func `tenant settings use Android attestation only with a policy and a package`() {
        var settings = TenantSettings()
        settings.androidPackages = [AndroidPackageRule(packageName: "dev.assent.example", signingCertificateSha256: [])]
        #expect(!settings.usesAndroidAttestation)
        settings.attestationPolicy = .record
        #expect(settings.usesAndroidAttestation)
        settings.androidPackages = []
        #expect(!settings.usesAndroidAttestation)
    }
}
