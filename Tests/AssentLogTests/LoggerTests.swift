import Foundation
import AssentSync
import Testing
@testable import AssentLog

@Suite struct LoggerTests {
    private final class Lines: Sendable {
        let storage = AssentLock<[String]>([])
        var all: [String] { storage.withLock { $0 } }
    }

    private func logger(_ lines: Lines, minimumLevel: Logger.Level = .debug) -> Logger {
        Logger(minimumLevel: minimumLevel, sink: { line in lines.storage.withLock { $0.append(line) } }, now: { (1_735_689_599, 7) })
    }

    @Test func writesOneJSONObjectPerLineWithFixedKeysFirstAndSortedFields() {
        let lines = Lines()
        logger(lines).info("request", ["status": 200, "route": "/v1/x", "ok": true, "ms": 1.5])
        #expect(lines.all == [
            #"{"time":"2024-12-31T23:59:59.007Z","level":"info","msg":"request","ms":1.5,"ok":true,"route":"/v1/x","status":200}"#,
        ])
    }

    @Test func escapesStringsAndKeepsEveryLineValidJSON() throws {
        let lines = Lines()
        let nasty = "quote \" backslash \\ newline \n cr \r nul \u{0} esc \u{1B} é 🔑"
        logger(lines).warning(nasty, ["k\"ey": .string(nasty), "nan": .double(.nan), "big": .double(1e300)])
        let line = try #require(lines.all.first)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["msg"] as? String == nasty)
        #expect(object["k\"ey"] as? String == nasty)
        #expect(object["nan"] is NSNull)
        #expect(object["level"] as? String == "warning")
    }

    @Test func dropsLinesBelowTheMinimumLevel() {
        let lines = Lines()
        let logger = logger(lines, minimumLevel: .warning)
        logger.debug("d")
        logger.info("i")
        logger.warning("w")
        logger.error("e")
        #expect(lines.all.count == 2)
        #expect(!logger.isEnabled(.info))
        #expect(logger.isEnabled(.error))
    }

    @Test func metadataAppearsOnEveryLineAndReservedKeysAreRenamed() {
        let lines = Lines()
        logger(lines).with(["component": "http"]).info("m", ["msg": "shadow", "time": 1])
        #expect(lines.all == [
            #"{"time":"2024-12-31T23:59:59.007Z","level":"info","msg":"m","component":"http","field.msg":"shadow","field.time":1}"#,
        ])
    }

    @Test(arguments: [
        (0, 0, "1970-01-01T00:00:00.000Z"),
        (951_782_400, 123, "2000-02-29T00:00:00.123Z"),
        (1_709_251_199, 999, "2024-02-29T23:59:59.999Z"),
        (4_102_444_800, 5, "2100-01-01T00:00:00.005Z"),
    ])
    func formatsUTCTimestampsWithMilliseconds(_ seconds: Int, _ milliseconds: Int, _ expected: String) {
        var text = ""
        Logger.appendTimestamp(seconds: seconds, milliseconds: milliseconds, to: &text)
        #expect(text == expected)
    }

    @Test func concurrentWritersProduceIntactLines() async {
        let lines = Lines()
        let logger = logger(lines)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<250 { logger.info("line", ["task": .int(task), "i": .int(i)]) }
                }
            }
        }
        #expect(lines.all.count == 2000)
        #expect(lines.all.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }

    @Test func wallClockTimestampsLookLikeISO8601() throws {
        let lines = Lines()
        Logger(minimumLevel: .info, sink: { line in lines.storage.withLock { $0.append(line) } }).info("now")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines.all[0].utf8)) as? [String: Any])
        let time = try #require(object["time"] as? String)
        #expect(time.count == 24)
        #expect(time.hasSuffix("Z"))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(formatter.date(from: time))
        #expect(abs(date.timeIntervalSinceNow) < 60)
    }
}
