package import AssentAttestation
package import AssentLog
import AssentSync

/// Google's Android attestation status list as the verifier uses it: read from the operator's source (a URL or a
/// file), kept in memory, refreshed every ``refresh`` (an hour), the last good copy kept.
///
/// Decisions: nothing is read at start, nor while no tenant has Android attestation configured (policy not `off` and
/// at least one package): a server that never verifies an Android chain never contacts the source. A read that fails
/// or does not parse keeps the copy there is, is logged and counted
/// (`assent_android_status_list_fetches_total{result="failed"}`), and is tried again after ``retry``. A copy older
/// than seven days (``maximumAgeMilliseconds``) is not used, nor is there one before the first good read: the verifier
/// then checks chains without it and the verdict says `revocationChecked: false`. Each instance keeps its own copy.
package final class AndroidStatusListCache: Sendable {
    /// The oldest copy used: seven days.
    package static let maximumAgeMilliseconds: Int64 = 7 * 24 * 3600 * 1000
    /// The default pause between good reads: an hour.
    package static let defaultRefresh = Duration.seconds(3600)

    /// What a round did.
    package enum Outcome: Sendable, Equatable {
        /// Nothing read: no tenant uses Android attestation.
        case unused
        /// Nothing read: the copy there is (or the last failure) is recent enough.
        case notDue
        /// A good copy was read and replaced the one there was.
        case fetched
        /// The read failed or did not parse; the copy there was stays.
        case failed
    }

    private struct State {
        var list: AndroidRevocationStatusList?
        /// When the copy in ``list`` was read.
        var fetchedAt: Int64?
        /// When the last read was tried, and whether it failed.
        var attemptedAt: Int64?
        var lastFailed = false
    }

    private let source: any AndroidStatusListSource
    private let inUse: @Sendable () async throws -> Bool
    private let clock: WallClock
    private let logger: Logger
    private let metrics: DomainMetrics
    /// Pause between good reads.
    let refresh: Duration
    private let state = AssentLock(State())
    private let loop: PeriodicLoop

    /// A cache of `source`'s list, read only while `inUse` says some tenant has Android attestation configured;
    /// `refresh` between good reads (an hour), `clock` for ages, `ticks` pacing the rounds (a manual clock in tests).
    package init(
        source: any AndroidStatusListSource, inUse: @escaping @Sendable () async throws -> Bool, clock: WallClock,
        logger: Logger, metrics: DomainMetrics, refresh: Duration = defaultRefresh,
        ticks: any Clock<Duration> = ContinuousClock()
    ) {
        self.source = source
        self.inUse = inUse
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.refresh = refresh
        loop = PeriodicLoop(clock: ticks)
    }

    /// After a failed read, the next one comes this much later (at most five minutes, at most ``refresh``).
    var retry: Duration { min(refresh, .seconds(300)) }
    /// How often a round looks whether a tenant now uses Android attestation (at most a minute).
    var look: Duration { min(refresh, .seconds(60)) }

    /// The copy to verify with: the last good one while it is at most seven days old, else nil.
    package func current() -> AndroidRevocationStatusList? {
        let now = clock.nowMilliseconds()
        return state.withLock { state in
            guard let list = state.list, let fetchedAt = state.fetchedAt,
                  now - fetchedAt <= Self.maximumAgeMilliseconds else { return nil }
            return list
        }
    }

    /// When the copy in use was read (milliseconds since the epoch), nil before the first good read.
    package var fetchedAt: Int64? { state.withLock { $0.fetchedAt } }

    /// One round: reads the source when some tenant uses Android attestation and a read is due (none yet, the last
    /// good one ``refresh`` ago, the last failed one ``retry`` ago).
    package func refreshIfDue() async -> Outcome {
        do {
            guard try await inUse() else { return .unused }
        } catch {
            logger.log(.warning, "android status list: tenants not read", ["error": .string(String(describing: error))])
            return .notDue
        }
        let now = clock.nowMilliseconds()
        let due = state.withLock { state -> Bool in
            guard let attemptedAt = state.attemptedAt else { return true }
            let wait = state.lastFailed ? retry : refresh
            return now - attemptedAt >= Self.milliseconds(wait)
        }
        guard due else { return .notDue }
        return await read(at: now)
    }

    private func read(at now: Int64) async -> Outcome {
        let parsed: AndroidRevocationStatusList
        do {
            let bytes = try await source.read()
            do throws(AttestationError) {
                parsed = try AndroidRevocationStatusList(json: bytes)
            } catch {
                throw AndroidStatusListFetchFailed("the list does not parse: \(error.reason)")
            }
        } catch {
            let kept = state.withLock { state -> Int64? in
                state.attemptedAt = now
                state.lastFailed = true
                return state.fetchedAt
            }
            metrics.androidStatusListFetch(.failed)
            var fields: [String: LogValue] = [
                "source": .string(source.location), "error": .string(String(describing: error)),
            ]
            if let kept { fields["keptCopyAgeSeconds"] = .int(Int((now - kept) / 1000)) }
            logger.log(.warning, "android attestation status list not refreshed; the last good copy stays", fields)
            return .failed
        }
        state.withLock { state in
            state.list = parsed
            state.fetchedAt = now
            state.attemptedAt = now
            state.lastFailed = false
        }
        metrics.androidStatusListFetch(.ok)
        logger.log(.info, "android attestation status list refreshed", [
            "source": .string(source.location), "entries": .int(parsed.entries.count),
        ])
        return .fetched
    }

    /// Runs ``refreshIfDue()`` now and then every ``look`` until ``stop()``.
    package func start() {
        loop.start { [self] _ in
            _ = await refreshIfDue()
            return .upTo(look)
        }
    }

    /// Stops after the current round.
    package func stop() async { await loop.stop() }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
