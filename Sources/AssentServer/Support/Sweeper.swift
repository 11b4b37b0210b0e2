import AssentHTTP
import Synchronization

/// Every minute, deletes challenges a day past their expiry, expired nonces, and webhook events delivered or given
/// up a week ago, so an unauthenticated stream of QR challenges cannot grow the database for ever.
final class Sweeper: Sendable {
    private let store: any Store
    private let clock: WallClock
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)
    static let interval: UInt64 = 60_000_000_000

    init(store: any Store, clock: WallClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Sweeps once now.
    func sweepOnce() async throws -> Int {
        let now = clock.nowMilliseconds()
        return try await store.sweep(now: now, challengesBefore: now - 86_400_000, eventsBefore: now - 7 * 86_400_000)
    }

    func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task { [self] in
                while !Task.isCancelled {
                    do {
                        let removed = try await sweepOnce()
                        if removed > 0 { logger.log(.info, "swept expired rows", ["rows": .int(removed)]) }
                    } catch {
                        logger.log(.warning, "sweep failed", ["error": .string(String(describing: error))])
                    }
                    try? await Task.sleep(nanoseconds: Self.interval)
                }
            }
        }
    }

    func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
