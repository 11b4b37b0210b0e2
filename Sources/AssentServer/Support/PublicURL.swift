import Synchronization

/// The URL browsers reach `assentd` at, known for sure only once the port is bound.
final class PublicURL: Sendable {
    private let value: Mutex<String>
    init(_ initial: String) { value = Mutex(initial) }
    func set(_ url: String) { value.withLock { $0 = url } }
    var current: String { value.withLock { $0 } }
}
