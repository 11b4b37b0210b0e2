import Foundation

/// Where URLs a tenant supplies (its webhook URL, its push webhook URL, its FCM service account's `token_uri`) may
/// lead: only to globally reachable addresses (``IPAddress/isGloballyReachable``), so a tenant cannot make `assentd`
/// reach loopback, the private network or a cloud metadata service, nor learn which internal ports are open.
///
/// Checked twice. When configured (``check(_:field:)``): an address literal in any form, a `localhost` name or a name
/// that resolves to such an address is refused; a name that does not resolve is accepted, because DNS can change
/// anyway. When connecting, for every address libcurl is about to open a socket to (``allowsConnection(to:)``, in
/// `AssentHTTPClient`'s client for tenant URLs): that check is the one that counts, so a name re-pointed after it was
/// configured (DNS rebinding) gets nowhere, and no packet leaves. The operator's own URLs (`--apns-url`, `--fcm-url`)
/// are not tenant-supplied and not restricted. `assentd --allow-private-urls` lifts both checks (development, tests).
package struct OutboundURLPolicy: Sendable {
    /// What a tenant is told when a request to one of its URLs failed without an answer (refused address, refused
    /// connection, timeout, TLS): the same for all, so the answer is no port scanner; the detail goes to the log.
    package static let deliveryFailed = "delivery_failed"

    /// Whether private addresses are allowed too (`--allow-private-urls`).
    package var allowsPrivateAddresses: Bool
    /// How names are resolved at configuration time.
    package var resolver: HostResolver

    /// A policy; `resolver` is the system's unless a test injects one.
    package init(allowsPrivateAddresses: Bool, resolver: HostResolver = .system) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.resolver = resolver
    }

    /// `host[:port]` of `url`, for the log: never its user, password, path or query, which may hold secrets.
    package static func loggableHost(of url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return "" }
        return parsed.port.map { "\(host):\($0)" } ?? host
    }

    /// Whether a connection to `address` may be opened.
    package func allowsConnection(to address: IPAddress) -> Bool {
        allowsPrivateAddresses || address.isGloballyReachable
    }

    /// Checks a URL a tenant configures: an `http(s)` URL with a host that leads only to globally reachable
    /// addresses, as far as can be known now.
    ///
    /// - Throws: `AssentError.invalidRequest` naming `field`; the description never says what the name resolved to.
    package func check(_ url: String, field: String) async throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
              let rawHost = parsed.host, !rawHost.isEmpty
        else {
            throw AssentError(.invalidRequest, "The \(field) must be an http(s) URL.")
        }
        guard !allowsPrivateAddresses else { return }
        let refused = AssentError(
            .invalidRequest,
            "The \(field) must lead to a publicly reachable address; loopback, private, link-local and other "
                + "special-purpose addresses are refused.")
        var host = rawHost.removingPercentEncoding ?? rawHost
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        if let address = IPAddress(host) {
            guard address.isGloballyReachable else { throw refused }
            return
        }
        // RFC 6761: localhost names are loopback whatever a resolver says.
        let name = host.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") { throw refused }
        for address in await resolver.addresses(of: host) where !address.isGloballyReachable {
            throw refused
        }
    }
}
