import Glibc

/// Nanoseconds from `CLOCK_MONOTONIC`; cheap enough to call twice per request.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    static func nanoseconds(fromSeconds seconds: Double) -> UInt64 {
        UInt64((seconds * 1e9).rounded())
    }
}
