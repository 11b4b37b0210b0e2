import Dispatch
import Foundation

/// Turns a host name into its addresses with the system resolver (`getaddrinfo`: `/etc/hosts`, then DNS). The call
/// blocks for as long as DNS takes, so it runs on a thread of its own and never holds one of the server's
/// cooperative threads while a tenant's name server is slow.
package struct HostResolver: Sendable {
    private let lookUp: @Sendable (String) async -> [IPAddress]

    /// A resolver answering with `lookUp` (tests inject names; nothing is sent anywhere).
    package init(_ lookUp: @escaping @Sendable (String) async -> [IPAddress]) {
        self.lookUp = lookUp
    }

    /// The system's resolver.
    package static let system = HostResolver { name in
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: getAddresses(name)) }
        }
    }

    /// Every address `name` resolves to; empty when it does not resolve.
    package func addresses(of name: String) async -> [IPAddress] { await lookUp(name) }

    private static func getAddresses(_ name: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch current.pointee.ai_family {
                case AF_INET:
                    socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        withUnsafeBytes(of: v4.pointee.sin_addr) { addresses.append(IPAddress(bytes: $0)!) }
                    }
                case AF_INET6:
                    socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        withUnsafeBytes(of: v6.pointee.sin6_addr) { addresses.append(IPAddress(bytes: $0)!) }
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
