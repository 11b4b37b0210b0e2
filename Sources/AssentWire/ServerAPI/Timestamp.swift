import Foundation

/// ISO-8601 timestamps as the wire carries them: UTC with milliseconds, e.g. `2026-11-30T06:16:58.123Z`.
package enum Timestamp {
    /// How a timestamp field is described in the OpenAPI document.
    package static let wireDescription = "ISO-8601, UTC with milliseconds, e.g. 2026-11-30T06:16:58.123Z"

    /// Formats milliseconds since the Unix epoch.
    package static func iso8601(milliseconds: Int64) -> String {
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

    /// Milliseconds since the Unix epoch of `text`: an ISO-8601 UTC time (`2026-11-30T06:16:58Z`, with or without
    /// milliseconds, or a date alone, `2026-11-30`), or a plain number of milliseconds. Nil for anything else.
    package static func milliseconds(_ text: String) -> Int64? {
        if let number = Int64(text), number >= 0 { return number }
        let utf8 = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int32? {
            guard range.upperBound <= utf8.count else { return nil }
            var value: Int32 = 0
            for c in utf8[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
                value = value * 10 + Int32(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard utf8.count >= 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        var millis: Int64 = 0
        if utf8.count > 10 {
            guard utf8.count >= 20, utf8[10] == UInt8(ascii: "T"), utf8[13] == UInt8(ascii: ":"),
                  utf8[16] == UInt8(ascii: ":"), utf8.last == UInt8(ascii: "Z"),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                  hour < 24, minute < 60, second < 61
            else { return nil }
            parts.tm_hour = hour
            parts.tm_min = minute
            parts.tm_sec = second
            if utf8.count == 24, utf8[19] == UInt8(ascii: "."), let fraction = number(20..<23) {
                millis = Int64(fraction)
            } else if utf8.count != 20 {
                return nil
            }
        }
        return Int64(timegm(&parts)) * 1000 + millis
    }
}
