import Assent
import AssentCrypto
import Foundation
import Synchronization

/// A ``Transport`` that records every request and answers from canned responses keyed by `METHOD /path` (the URL
/// path without the query). A route answers its responses in order and repeats the last; an unknown route is a 404
/// without a body. A route may instead fail as a transport error.
final class FakeTransport: Transport {
    struct Unreachable: Error, LocalizedError {
        var errorDescription: String? { "Could not connect to the server." }
    }

    private struct State {
        var routes: [String: [Result<TransportResponse, Unreachable>]] = [:]
        var requests: [TransportRequest] = []
    }

    private let state = Mutex(State())

    /// Answers `method path` with `status` and a JSON body.
    func on(_ method: String, _ path: String, status: Int = 200, json: String) {
        on(method, path, TransportResponse(status: status, body: Data(json.utf8)))
    }

    /// Answers `method path` with `response` (appended after earlier ones for the same route).
    func on(_ method: String, _ path: String, _ response: TransportResponse) {
        state.withLock { $0.routes["\(method) \(path)", default: []].append(.success(response)) }
    }

    /// Fails `method path` as if the server could not be reached.
    func unreachable(_ method: String, _ path: String) {
        state.withLock { $0.routes["\(method) \(path)", default: []].append(.failure(Unreachable())) }
    }

    /// Every request sent, in order.
    var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// The requests sent to `method path`.
    func requests(_ method: String, _ path: String) -> [TransportRequest] {
        requests.filter { $0.method == method && $0.url.path == path }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let answer: Result<TransportResponse, Unreachable>? = state.withLock { state in
            state.requests.append(request)
            let key = "\(request.method) \(request.url.path)"
            guard var answers = state.routes[key], let first = answers.first else { return nil }
            if answers.count > 1 {
                answers.removeFirst()
                state.routes[key] = answers
            }
            return first
        }
        guard let answer else { return TransportResponse(status: 404) }
        return try answer.get()
    }
}

extension TransportRequest {
    /// The body as a JSON object.
    func jsonBody() throws -> [String: Any] {
        guard let body, let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("request has no JSON object body")
        }
        return object
    }

    /// The value of query item `name`, exactly as written in the URL.
    func query(_ name: String) -> String? {
        guard let query = url.query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Whether `signature` (base64 DER) verifies over `message` under `publicKey` (base64 SPKI).
func verifies(signature: String?, message: String, publicKey: String?) -> Bool {
    guard let signature, let publicKey, let der = Base64.decodeStrict(signature), let spki = Base64.decodeStrict(publicKey),
          let key = try? P256.PublicKey(spkiDER: spki)
    else { return false }
    return key.isValidSignature(der, for: Array(message.utf8))
}
