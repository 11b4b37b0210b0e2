import AssentSync

/// The token set with ``Assent/setToken(_:)``, shared by every namespace of one ``Assent`` instance.
final class TokenCache: Sendable {
    private let token = AssentLock<String?>(nil)

    /// Replaces the cached token.
    func set(_ value: String?) { token.withLock { $0 = value } }

    /// The cached token, if any.
    func get() -> String? { token.withLock { $0 } }

    /// `explicit` when given, else the cached token.
    func resolve(_ explicit: String?) -> String? { explicit ?? get() }
}
