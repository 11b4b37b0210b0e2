@testable import AssentHTTPClient
@testable import AssentServerCore
import AssentLog
import Foundation
import Testing

/// The libcurl client's failure answers, which the push senders turn into retries: a refused connection, a peer that
/// never answers, and a stopped client. (Successful HTTP/2 exchanges are covered end to end against the fake APNs.)
@Suite struct HTTP2ClientTests {
    /// A loopback port with a listening socket that never accepts or answers, and a port nothing listens on.
    static func silentListener() throws -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        #expect(bound == 0 && listen(fd, 8) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func `a refused connection is connect_failed and a silent peer is a timeout`() async throws {
        let client = try HTTP2Client()
        defer { client.stop() }
        let (fd, port) = try Self.silentListener()
        // Closed once only: tests run in parallel in one process, and a second
        // close could hit a descriptor another test opened under the same number.
        var listening = true
        defer { if listening { close(fd) } }
        var silent = HTTP2Client.Request(url: "http://127.0.0.1:\(port)/x")
        silent.timeout = 0.3
        await #expect(throws: HTTP2Client.TransportError.self) { _ = try await client.send(silent) }
        do {
            _ = try await client.send(silent)
        } catch let error as HTTP2Client.TransportError {
            #expect(error.code == "timeout")
        }
        close(fd)
        listening = false
        // A port nobody listens on and no connection of this client ever reached, so nothing of the silent
        // exchange above (a connection curl may still be tearing down) can answer in its place.
        let (closedFD, closedPort) = try Self.silentListener()
        close(closedFD)
        var refused = HTTP2Client.Request(url: "http://127.0.0.1:\(closedPort)/x")
        refused.timeout = 2
        do {
            _ = try await client.send(refused)
            Issue.record("a closed port answered")
        } catch let error as HTTP2Client.TransportError {
            #expect(error.code == "connect_failed")
        }
    }

    @Test func `a stopped client answers stopped at once`() async throws {
        let client = try HTTP2Client()
        client.stop()
        do {
            _ = try await client.send(HTTP2Client.Request(url: "http://127.0.0.1:9/x"))
            Issue.record("a stopped client sent")
        } catch let error as HTTP2Client.TransportError {
            #expect(error.code == "stopped")
        }
    }

    @Test(arguments: ["http://127.0.0.1:PORT/x", "http://127.1:PORT/x", "http://[::ffff:127.0.0.1]:PORT/x", "http://localhost:PORT/x"])
    func `a client for tenant URLs refuses a loopback address before any packet`(_ template: String) async throws {
        var options = HTTP2Client.Options()
        options.destinations = OutboundURLPolicy(allowsPrivateAddresses: false, resolver: HostResolver { _ in [] })
        let client = try HTTP2Client(options: options)
        defer { client.stop() }
        let (fd, port) = try Self.silentListener()
        defer { close(fd) }
        var request = HTTP2Client.Request(url: template.replacingOccurrences(of: "PORT", with: String(port)))
        request.timeout = 2
        do {
            _ = try await client.send(request)
            Issue.record("a loopback address answered")
        } catch let error as HTTP2Client.TransportError {
            #expect(error.code == "address_refused")
            #expect(error.reason.contains("not a globally reachable address"))
        }
        // Nothing reached the listener: no connection waits in its backlog.
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 0) == 0)
        #expect(client.connectionsOpened == 0)
    }
}
