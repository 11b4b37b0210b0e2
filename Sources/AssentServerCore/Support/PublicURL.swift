import AssentSync

/// The URL browsers reach `assentd` at, known for sure only once the port is bound.
package final class PublicURL: Sendable {
    private let value: AssentLock<String>
    package init(_ initial: String) { value = AssentLock(initial) }
    package func set(_ url: String) { value.withLock { $0 = url } }
    package var current: String { value.withLock { $0 } }
}
