import Foundation
import AssentSync
import Testing
@testable import AssentLog

/// Log flooding: warnings that come per request are written a few times per interval, then counted in one line.
@Suite struct WarningLimiterTests {
    private final class Lines: Sendable {
        let storage = AssentLock<[String]>([])
        var all: [String] { storage.withLock { $0 } }
        var objects: [[String: Any]] {
            all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// A clock the test moves by hand (seconds).
    private final class Clock: Sendable {
        let time = AssentLock<Double>(100)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    private func logger(_ lines: Lines, _ clock: Clock, limit: Int = 3, interval: Double = 10) -> Logger {
        Logger(
            minimumLevel: .info, sink: { line in lines.storage.withLock { $0.append(line) } }, now: { (0, 0) },
            warnings: WarningLimiter(limit: limit, interval: interval, now: { clock.time.withLock { $0 } }))
    }

    @Test func `a flood of one warning writes the first few, then one summary with the count when the interval ends`() {
        let lines = Lines(), clock = Clock()
        let logger = logger(lines, clock)
        for index in 0..<1_000 { logger.repeatedWarning("libmicrohttpd", ["detail": .int(index)]) }
        #expect(lines.objects.map { $0["detail"] as? Int } == [0, 1, 2])

        clock.advance(9.9)
        logger.writeSuppressedSummaries()
        #expect(lines.all.count == 3)  // the interval has not ended yet

        clock.advance(0.1)
        logger.writeSuppressedSummaries()
        let summary = lines.objects.last ?? [:]
        #expect(summary["msg"] as? String == "repeated warnings suppressed")
        #expect(summary["level"] as? String == "warning")
        #expect(summary["warning"] as? String == "libmicrohttpd")
        #expect(summary["count"] as? Int == 997)
        logger.writeSuppressedSummaries()
        #expect(lines.all.count == 4)  // each summary once
    }

    @Test func `the next interval starts afresh and the summary comes before the first new warning`() {
        let lines = Lines(), clock = Clock()
        let logger = logger(lines, clock, limit: 1)
        logger.repeatedWarning("database busy")
        logger.repeatedWarning("database busy")
        clock.advance(10)
        logger.repeatedWarning("database busy")
        #expect(lines.objects.map { $0["msg"] as? String } == ["database busy", "repeated warnings suppressed", "database busy"])
        #expect(lines.objects[1]["count"] as? Int == 1)
    }

    @Test func `kinds are limited apart, and errors and plain warnings never`() {
        let lines = Lines(), clock = Clock()
        let logger = logger(lines, clock, limit: 2)
        for _ in 0..<5 {
            logger.repeatedWarning("websocket refused: at the limit")
            logger.repeatedWarning("libmicrohttpd")
            logger.warning("sweep failed")
            logger.error("request failed")
        }
        let messages = lines.objects.compactMap { $0["msg"] as? String }
        #expect(messages.filter { $0 == "websocket refused: at the limit" }.count == 2)
        #expect(messages.filter { $0 == "libmicrohttpd" }.count == 2)
        #expect(messages.filter { $0 == "sweep failed" }.count == 5)
        #expect(messages.filter { $0 == "request failed" }.count == 5)
    }

    @Test func `copies of a logger share the count and an interval without suppression writes no summary`() {
        let lines = Lines(), clock = Clock()
        let logger = logger(lines, clock, limit: 2)
        logger.with(["requestId": "a"]).repeatedWarning("database busy")
        logger.with(["requestId": "b"]).repeatedWarning("database busy")
        logger.with(["requestId": "c"]).repeatedWarning("database busy")
        #expect(lines.all.count == 2)
        clock.advance(10)
        logger.repeatedWarning("libmicrohttpd")
        clock.advance(10)
        logger.writeSuppressedSummaries()
        #expect(lines.objects.compactMap { $0["msg"] as? String } == [
            "database busy", "database busy", "repeated warnings suppressed", "libmicrohttpd",
        ])
    }
}
