import AssentServerCore
import Foundation
import Synchronization

/// The dedicated listening connection: on a thread of its own it runs `LISTEN` on the challenge channel and hands
/// every announcement from another instance to its handler. A lost connection is re-opened after a second (changes
/// announced meanwhile are caught by the watchers' periodic re-check).
final class PostgresChangeListener: Sendable {
    private let url: String
    private let instanceID: String
    private let roundTrips: PostgresRoundTrips
    private let handler: @Sendable (ChallengeChange) -> Void
    private let stopped = Atomic<Bool>(false)

    init(
        url: String, instanceID: String, roundTrips: PostgresRoundTrips,
        handler: @escaping @Sendable (ChallengeChange) -> Void
    ) {
        self.url = url
        self.roundTrips = roundTrips
        self.instanceID = instanceID
        self.handler = handler
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "assent-postgres-listen"
        thread.start()
    }

    /// Stops within about a second.
    func stop() { stopped.store(true, ordering: .relaxed) }

    private func run() {
        while !stopped.load(ordering: .relaxed) {
            do {
                let connection = try PostgresConnection(url: url, roundTrips: roundTrips)
                try connection.execute("LISTEN \(PostgresStore.challengeChannel)")
                while !stopped.load(ordering: .relaxed) {
                    for notification in try connection.waitForNotifications(timeout: 1) {
                        guard let (instance, change) = ChallengeChange.parse(notification.payload),
                              instance != instanceID
                        else { continue }
                        handler(change)
                    }
                }
            } catch {
                if !stopped.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 1) }
            }
        }
    }
}
