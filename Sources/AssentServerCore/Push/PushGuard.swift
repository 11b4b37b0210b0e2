/// One user's push-bombing state: consecutive failed pushes (denials, expiries, wrong verification codes), the
/// throttle they put on new push starts, and the lock a "this wasn't me" report puts on them. Kept in the database
/// (``PushGuardStore``) so every instance sharing it sees the same state; changed only inside
/// ``PushGuardStore/updatePushGuard(tenantID:userID:now:timeline:events:_:)``, which holds the user's lock, so two
/// failures at once count twice and an approval is never lost between them.
///
/// The rule: after ``failureLimit`` consecutive failures within ``window``, starts are throttled for the tenant's
/// `pushThrottleSeconds`; every further failure before an approval doubles it (up to ``maxThrottle``). A failure
/// more than ``window`` after the previous one (or after the throttle it caused ended) starts afresh. An approval
/// ends the count and the throttle (not a fraud lock); an administrator's reset ends everything.
package struct PushGuard: Sendable, Hashable {
    /// Consecutive failures that throttle push starts.
    package static let failureLimit = 3
    /// The span, milliseconds, those failures must fall in.
    package static let window: Int64 = 600_000
    /// The longest throttle, milliseconds, however many failures follow.
    package static let maxThrottle: Int64 = 3_600_000

    /// The tenant.
    package var tenantID: String
    /// The user.
    package var userID: String
    /// Times of the newest consecutive failures (at most ``failureLimit``), oldest first, milliseconds.
    package var recentFailures: [Int64] = []
    /// Consecutive failures since the last approval or reset.
    package var consecutiveFailures = 0
    /// 0 when not throttled; each throttle after the first doubles its length.
    package var throttleLevel = 0
    /// New push starts are refused `push_throttled` until then, milliseconds.
    package var throttledUntil: Int64?
    /// New push starts are refused `push_locked` until then (a fraud report), milliseconds.
    package var lockedUntil: Int64?
    /// Push challenges that expired unanswered up to this moment have been counted, milliseconds.
    package var expiriesCountedThrough: Int64

    /// A user with no failures; expiries older than ``window`` before `now` are never counted.
    package init(tenantID: String, userID: String, now: Int64) {
        self.tenantID = tenantID
        self.userID = userID
        expiriesCountedThrough = now - Self.window
    }

    /// Counts the unanswered expiries at `expiredAt` (each once: they are the ones after ``expiriesCountedThrough``)
    /// and moves the mark to `now`.
    package mutating func countExpiries(_ expiredAt: [Int64], through now: Int64, throttleSeconds: Int) {
        for at in expiredAt.sorted() where at > expiriesCountedThrough {
            recordFailure(at: at, throttleSeconds: throttleSeconds)
        }
        expiriesCountedThrough = max(expiriesCountedThrough, now)
    }

    /// A denial, an expiry or a wrong verification code at `at`.
    package mutating func recordFailure(at: Int64, throttleSeconds: Int) {
        let lastActivity = max(recentFailures.last ?? Int64.min, throttledUntil ?? Int64.min)
        if lastActivity != Int64.min, at - lastActivity > Self.window {
            recentFailures = []
            consecutiveFailures = 0
            throttleLevel = 0
            throttledUntil = nil
        }
        recentFailures = Array((recentFailures + [at]).suffix(Self.failureLimit))
        consecutiveFailures += 1
        if throttleLevel > 0 {
            throttleLevel += 1
        } else if recentFailures.count >= Self.failureLimit, let first = recentFailures.first, at - first <= Self.window {
            throttleLevel = 1
        } else {
            return
        }
        let base = Int64(max(throttleSeconds, 1)) * 1000
        let length = min(base << Int64(min(throttleLevel - 1, 20)), Self.maxThrottle)
        throttledUntil = max(throttledUntil ?? 0, at + length)
    }

    /// An approval at `now`: the count and the throttle end; expiries before it no longer count. A fraud lock stays.
    package mutating func recordApproval(at now: Int64) {
        recentFailures = []
        consecutiveFailures = 0
        throttleLevel = 0
        throttledUntil = nil
        expiriesCountedThrough = max(expiriesCountedThrough, now)
    }

    /// "This wasn't me" at `now`: push starts are locked for `seconds`.
    package mutating func lock(at now: Int64, seconds: Int) {
        lockedUntil = max(lockedUntil ?? 0, now + Int64(max(seconds, 0)) * 1000)
    }

    /// An administrator's reset at `now`: everything ends, the fraud lock too.
    package mutating func reset(at now: Int64) {
        recordApproval(at: now)
        lockedUntil = nil
    }

    /// Why a push start at `now` is refused, if it is: `429 push_locked` or `push_throttled` with the seconds left.
    package func refusal(at now: Int64) -> AssentError? {
        if let lockedUntil, lockedUntil > now {
            return AssentError(
                .pushLocked, "Push is locked for this user: a device reported a push as not theirs.",
                retryAfterSeconds: Self.seconds(lockedUntil - now))
        }
        if let throttledUntil, throttledUntil > now {
            return AssentError(
                .pushThrottled,
                "Too many push challenges for this user were denied or expired; new ones are refused for a while.",
                retryAfterSeconds: Self.seconds(throttledUntil - now))
        }
        return nil
    }

    private static func seconds(_ milliseconds: Int64) -> Int { Int((milliseconds + 999) / 1000) }
}
