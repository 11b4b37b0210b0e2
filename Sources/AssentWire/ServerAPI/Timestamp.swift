import Foundation

/// ISO-8601 timestamps as the wire carries them: UTC with milliseconds, e.g. `2026-11-30T06:16:58.123Z`.
public enum Timestamp {
    /// Formats milliseconds since the Unix epoch.
    public static func iso8601(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var millis = Int(milliseconds % 1000)
        if millis < 0 {
            seconds -= 1
            millis += 1000
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}
