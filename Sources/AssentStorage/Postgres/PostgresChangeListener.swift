import AssentServerCore
import Foundation
import Synchronization

/// A dedicated listening connection: on a thread of its own it runs `LISTEN` on one channel and hands every
/// notification's payload to its handler. A lost connection is re-opened after a second; `listening` is called each
/// time `LISTEN` took effect, since announcements made while it was down are lost (the challenge watchers' periodic
/// re-check catches those; the tenant cache is cleared).
final class PostgresChangeListener: Sendable {
    private let url: String
    private let channel: String
    private let roundTrips: PostgresRoundTrips
    private let handler: @Sendable (String) -> Void
    private let listening: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)

    init(
        url: String, channel: String, roundTrips: PostgresRoundTrips, listening: @escaping @Sendable () -> Void = {},
        handler: @escaping @Sendable (String) -> Void
    ) {
        self.url = url
        self.roundTrips = roundTrips
        self.channel = channel
        self.listening = listening
        self.handler = handler
    }

    /// Listens for challenge changes made by other instances than `instanceID`.
    convenience init(
        url: String, instanceID: String, roundTrips: PostgresRoundTrips,
        handler: @escaping @Sendable (ChallengeChange) -> Void
    ) {
        self.init(url: url, channel: PostgresStore.challengeChannel, roundTrips: roundTrips) { payload in
            guard let (instance, change) = ChallengeChange.parse(payload), instance != instanceID else { return }
            handler(change)
        }
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
                try connection.execute("LISTEN \(channel)")
                listening()
                while !stopped.load(ordering: .relaxed) {
                    for notification in try connection.waitForNotifications(timeout: 1) {
                        handler(notification.payload)
                    }
                }
            } catch {
                if !stopped.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 1) }
            }
        }
    }
}
