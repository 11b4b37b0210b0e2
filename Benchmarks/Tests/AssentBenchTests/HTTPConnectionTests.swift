import Glibc
import Testing
@testable import assent_bench
import Foundation

/// A one-connection loopback server that answers each request with the next
/// scripted reply, written in the given pieces.
private final class ScriptedServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var thread: WorkerThread?

    init(replies: [[String]]) throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(listening, raw, length)
                _ = getsockname(listening, raw, &length)
            }
        }
        listen(listening, 4)
        listener = listening
        port = UInt16(bigEndian: address.sin_port)
        thread = try WorkerThread {
            let connection = accept(listening, nil, nil)
            var pending: [UInt8] = []
            for reply in replies {
                // Read one request: headers and Content-Length body.
                while true {
                    if let end = ScriptedServer.requestEnd(pending) { pending.removeFirst(end); break }
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let count = recv(connection, &chunk, chunk.count, 0)
                    if count <= 0 { close(connection); return }
                    pending += chunk[0..<count]
                }
                for piece in reply {
                    _ = piece.utf8CString.withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
                    usleep(2_000)
                }
            }
            close(connection)
        }
    }

    private static func requestEnd(_ bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<range.lowerBound].lowercased()
        var length = 0
        if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let total = text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound) + length
        return bytes.count >= total ? total : nil
    }

    func finish() {
        thread?.join()
        close(listener)
    }
}

@Suite struct HTTPConnectionTests {
    private func connection(to server: ScriptedServer) throws -> HTTPConnection {
        HTTPConnection(endpoint: try Endpoint.resolve("http://127.0.0.1:\(server.port)"), timeoutSeconds: 2)
    }

    private let request = HTTPRequest.post("/v1/validate", authorization: "Basic eA==", json: #"{"token":"t"}"#)

    @Test func readsResponsesSplitAcrossPacketsOnOneKeepAliveConnection() throws {
        let big = String(repeating: "a", count: 40_000)  // larger than the 16 KiB read buffer
        let server = try ScriptedServer(replies: [
            ["HTTP/1.1 200 OK\r\nContent-Le", "ngth: 13\r\n\r\n{\"token\":", "\"t\"}"],
            ["HTTP/1.1 500 Internal\r\ncontent-length: 2\r\n\r\n{}"],
            ["HTTP/1.1 200 OK\r\nContent-Length: \(big.count + 2)\r\n\r\n\"\(big.prefix(10_000))", "\(big.dropFirst(10_000))\""],
        ])
        defer { server.finish() }
        let client = try connection(to: server)
        let first = try client.send(request)
        #expect(first.status == 200)
        #expect(first.jsonString(forKey: "token") == "t")
        #expect(try client.send(request).status == 500)
        let third = try client.send(request)
        #expect(third.body.count == big.count + 2)
        #expect(client.connectCount == 1)
    }

    @Test func rejectsChunkedResponsesClearly() throws {
        let server = try ScriptedServer(replies: [["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"]])
        defer { server.finish() }
        let client = try connection(to: server)
        do {
            _ = try client.send(request)
            Issue.record("expected a protocol error")
        } catch {
            #expect(error.code == .protocolViolation)
            #expect(error.reason.contains("chunked"))
        }
        #expect(!client.isConnected)
    }

    @Test func readsAConnectionCloseBodyWithoutContentLength() throws {
        let server = try ScriptedServer(replies: [["HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"isValid\":", "true}"]])
        defer { server.finish() }
        let client = try connection(to: server)
        let response = try client.send(request)
        #expect(response.hasJSONKey("isValid"))
        #expect(!client.isConnected)
    }

    @Test func reportsAServerThatClosesInsteadOfAnswering() throws {
        let server = try ScriptedServer(replies: [[]])  // reads the request, answers nothing, closes
        defer { server.finish() }
        let client = try connection(to: server)
        #expect(throws: BenchError(.closedByServer, label: "", reason: "")) { try client.send(request) }
    }
}
