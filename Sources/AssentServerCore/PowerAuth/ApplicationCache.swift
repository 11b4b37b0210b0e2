import AssentSync

/// A shared, locked cache of applications (a class so copies of the service share it).
final class ApplicationCache: Sendable {
    private let entries = AssentLock<[String: PowerAuthApplication]>([:])

    func withLock<T>(_ body: (inout [String: PowerAuthApplication]) -> T) -> T {
        entries.withLock { body(&$0) }
    }
}
