/// A user's push guard as the store read it at one moment (``PushGuardStore/pushGuard(tenantID:userID:now:)``): the
/// stored guard and the unanswered expiries it has not counted yet, which the next change to it counts.
package struct PushGuardRead: Sendable, Hashable {
    /// The stored guard; nil when the user has none.
    package var stored: PushGuard?
    /// When the user's push challenges expired unanswered after the guard last counted them (or in the
    /// ``PushGuard/window`` before the read's `now` when there is no guard), up to `now`; milliseconds.
    package var expiredAt: [Int64]

    /// A read that found `stored` and the uncounted expiries `expiredAt` (by default: nothing).
    package init(stored: PushGuard? = nil, expiredAt: [Int64] = []) {
        self.stored = stored
        self.expiredAt = expiredAt
    }
}
