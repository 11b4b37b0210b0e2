import Foundation

/// A web origin as RFC 6454 compares them: scheme, host and port, all three. The console's cross-site check compares
/// a form post's `Origin` with this request's own origin and the public URL's; a host alone is not enough, since a
/// page served from the same host under another scheme (or port) is another origin that `SameSite` counts as the
/// same site.
struct ConsoleOrigin: Hashable, Sendable {
    /// `http` or `https`, lowercased.
    var scheme: String
    /// The host, lowercased (an IPv6 address as URLComponents gives it).
    var host: String
    /// The port, explicit: 80 or 443 when the text names none.
    var port: Int

    /// The origin `text` serializes (`scheme://host[:port]`, as browsers send `Origin`): nil for anything else —
    /// `null`, another scheme, user info, a path, a query or a fragment.
    init?(_ text: String) {
        guard text.utf8.count <= 512, let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.percentEncodedPath.isEmpty,
              components.query == nil, components.fragment == nil
        else { return nil }
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: return nil
        }
        self.scheme = scheme
        self.host = host
        port = components.port ?? defaultPort
    }

    /// The origin of a request that arrived over `scheme` with this `Host` header.
    init?(scheme: String, host: String) {
        guard !host.contains("/"), !host.contains("@") else { return nil }
        self.init(scheme + "://" + host)
    }

    /// The origin of a URL with a path (the public URL): its scheme, host and port.
    init?(url: String) {
        guard var components = URLComponents(string: url) else { return nil }
        components.percentEncodedPath = ""
        components.query = nil
        components.fragment = nil
        guard let text = components.string else { return nil }
        self.init(text)
    }
}
