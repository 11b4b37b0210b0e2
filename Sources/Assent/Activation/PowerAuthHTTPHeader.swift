/// A signed request header: ``key`` is `X-PowerAuth-Authorization`, ``value`` the `PowerAuth pa_version="3.3", ...`
/// text to send with the request it signs.
public struct PowerAuthHTTPHeader: Sendable, Hashable, Codable {
    /// The header's name.
    public var key: String
    /// The header's value.
    public var value: String

    /// Creates a header.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
