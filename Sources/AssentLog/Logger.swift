#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AssentSync

/// A structured logger: one JSON object per line.
///
/// Each line is `{"time":"2025-01-02T03:04:05.678Z","level":"info","msg":"...", ...fields}`,
/// with the fields sorted by name after the three fixed keys (a field named
/// `time`, `level` or `msg` is written as `field.time` and so on). Lines go to
/// standard error, or to an injected sink. Writes are serialized, so lines
/// from different threads never interleave. Never log secrets, tokens,
/// signatures, request headers, query strings or bodies.
package struct Logger: Sendable {
    /// Severity, from least to most severe.
    package enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Detail for debugging.
        case debug
        /// Normal operation, e.g. one access-log line per request.
        case info
        /// Something unexpected that the server handled.
        case warning
        /// A failure that needs attention.
        case error

        /// The level's name as written in the `level` field.
        package var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// Orders levels by severity.
        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Lines below this level are dropped.
    package var minimumLevel: Level
    /// Fields added to every line (e.g. the component); a call's own fields win on a clash.
    package var metadata: [String: LogValue]

    private let output: Output
    private let now: @Sendable () -> (seconds: Int, milliseconds: Int)
    /// Shared by every copy (``with(_:)``), so a flood is counted across request-scoped loggers.
    private let warnings: WarningLimiter
    /// Whether a summary is written when its interval ends even if no later warning comes (off under a manual clock).
    private let summariesOnTimer: Bool

    /// A logger writing to standard error.
    package init(minimumLevel: Level = .info, metadata: [String: LogValue] = [:]) {
        self.init(minimumLevel: minimumLevel, metadata: metadata, sink: nil)
    }

    /// A logger handing each line (without the trailing newline) to `sink`, one call at a time.
    package init(minimumLevel: Level = .info, metadata: [String: LogValue] = [:], sink: (@Sendable (String) -> Void)?) {
        self.minimumLevel = minimumLevel
        self.metadata = metadata
        self.output = Output(sink: sink)
        self.now = Logger.wallClock
        self.warnings = WarningLimiter()
        self.summariesOnTimer = true
    }

    /// A logger with an injected clock, for tests: `now` returns seconds since
    /// 1970 and the millisecond part.
    init(
        minimumLevel: Level,
        sink: @escaping @Sendable (String) -> Void,
        now: @escaping @Sendable () -> (seconds: Int, milliseconds: Int),
        warnings: WarningLimiter = WarningLimiter()
    ) {
        self.minimumLevel = minimumLevel
        self.metadata = [:]
        self.output = Output(sink: sink)
        self.now = now
        self.warnings = warnings
        self.summariesOnTimer = false
    }

    /// Whether a line at `level` would be written.
    package func isEnabled(_ level: Level) -> Bool { level >= minimumLevel }

    /// Writes one line at `level`.
    package func log(_ level: Level, _ message: String, _ fields: [String: LogValue] = [:]) {
        guard level >= minimumLevel else { return }
        output.write(format(level, message, fields), urgent: level >= .warning)
    }

    /// Writes one line at `debug` level.
    package func debug(_ message: String, _ fields: [String: LogValue] = [:]) { log(.debug, message, fields) }
    /// Writes one line at `info` level.
    package func info(_ message: String, _ fields: [String: LogValue] = [:]) { log(.info, message, fields) }
    /// Writes one line at `warning` level.
    package func warning(_ message: String, _ fields: [String: LogValue] = [:]) { log(.warning, message, fields) }
    /// Writes one line at `error` level.
    package func error(_ message: String, _ fields: [String: LogValue] = [:]) { log(.error, message, fields) }

    /// Writes a warning that can come once per request or connection (a refused or aborted one): the first
    /// ``WarningLimiter/limit`` with this message per interval are written, the rest counted, and when the interval
    /// ends one line `"repeated warnings suppressed"` gives the message left out and its `count`. Errors are never
    /// limited; use ``warning(_:_:)`` for anything that does not repeat with traffic.
    package func repeatedWarning(_ message: String, _ fields: [String: LogValue] = [:]) {
        guard isEnabled(.warning) else { return }
        let decision = warnings.admit(message)
        writeSummaries(decision.ended)
        if decision.write {
            log(.warning, message, fields)
        } else if decision.firstSuppressed, summariesOnTimer {
            // Nothing may come after the flood: write its summary when its interval ends anyway.
            let delay = warnings.remaining(message)
            let logger = self
            Task.detached {
                try? await Task.sleep(for: .milliseconds(Int(delay * 1000) + 1))
                logger.writeSummaries(logger.warnings.takeEnded())
            }
        }
    }

    /// Writes the summaries of intervals that have ended and had warnings left out (tests call it after moving
    /// their clock; the server's timer does it by itself).
    package func writeSuppressedSummaries() {
        writeSummaries(warnings.takeEnded())
    }

    private func writeSummaries(_ ended: [WarningLimiter.Suppressed]) {
        for summary in ended {
            log(.warning, "repeated warnings suppressed", [
                "warning": .string(summary.message), "count": .int(summary.count),
                "limit": .int(warnings.limit), "intervalSeconds": .double(warnings.interval),
            ])
        }
    }

    /// A copy of this logger that adds `fields` to every line.
    package func with(_ fields: [String: LogValue]) -> Logger {
        var copy = self
        copy.metadata.merge(fields) { _, new in new }
        return copy
    }

    func format(_ level: Level, _ message: String, _ fields: [String: LogValue]) -> String {
        var line = "{\"time\":\""
        let time = now()
        Logger.appendTimestamp(seconds: time.seconds, milliseconds: time.milliseconds, to: &line)
        line += "\",\"level\":\""
        line += level.description
        line += "\",\"msg\":"
        JSONText.appendString(message, to: &line)
        var all = metadata
        if !fields.isEmpty { all.merge(fields) { _, new in new } }
        for key in all.keys.sorted() {
            line += ","
            switch key {
            case "time", "level", "msg": JSONText.appendString("field." + key, to: &line)
            default: JSONText.appendString(key, to: &line)
            }
            line += ":"
            all[key]!.appendJSON(to: &line)
        }
        line += "}"
        return line
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC) for the given instant.
    static func appendTimestamp(seconds: Int, milliseconds: Int, to output: inout String) {
        // Civil-from-days (Howard Hinnant), valid for the proleptic Gregorian calendar.
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        func pad(_ value: Int, _ width: Int) {
            let digits = String(value)
            if digits.count < width { output += String(repeating: "0", count: width - digits.count) }
            output += digits
        }
        pad(year, 4); output += "-"; pad(month, 2); output += "-"; pad(day, 2)
        output += "T"
        pad(secondOfDay / 3600, 2); output += ":"; pad(secondOfDay / 60 % 60, 2); output += ":"; pad(secondOfDay % 60, 2)
        output += "."; pad(milliseconds, 3); output += "Z"
    }

    private static let wallClock: @Sendable () -> (seconds: Int, milliseconds: Int) = {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return (Int(spec.tv_sec), Int(spec.tv_nsec) / 1_000_000)
    }

    /// Serializes writes to the sink or to standard error.
    private final class Output: Sendable {
        private let lock = AssentLock(())
        private let sink: (@Sendable (String) -> Void)?

        init(sink: (@Sendable (String) -> Void)?) {
            self.sink = sink
        }

        func write(_ line: String, urgent: Bool) {
            if let sink {
                lock.withLock { _ in sink(line) }
            } else {
                StandardErrorBuffer.shared.append(line, flushNow: urgent)
            }
        }
    }

    /// Writes out whatever standard-error lines are still buffered (call before the process exits).
    package static func flush() {
        StandardErrorBuffer.shared.flush()
    }
}

/// Lines for standard error, gathered and written in batches: a `write` per access-log line cost about a third of
/// a trivial request's time. Warnings and errors are written at once; other lines within 50 ms or when 64 KiB have
/// gathered. A crash can lose at most the last 50 ms of info lines; nothing else depends on them.
private final class StandardErrorBuffer: Sendable {
    static let shared = StandardErrorBuffer()
    private let pending = AssentLock<[UInt8]>([])
    /// Serializes writes to file descriptor 2 so batches never interleave.
    private let writing = AssentLock(())

    private init() {
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { _ in
            while true {
                usleep(50_000)
                StandardErrorBuffer.shared.flush()
            }
        }, nil)
        if created == 0 { pthread_detach(thread) }
    }

    func append(_ line: String, flushNow: Bool) {
        let full = pending.withLock { buffer -> Bool in
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            return buffer.count >= 64 * 1024
        }
        if flushNow || full { flush() }
    }

    func flush() {
        writing.withLock { _ in
            let bytes = pending.withLock { buffer -> [UInt8] in
                defer { buffer.removeAll(keepingCapacity: true) }
                return buffer
            }
            guard !bytes.isEmpty else { return }
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }
}
