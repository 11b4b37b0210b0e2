public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``Transport``: Foundation's `URLSession` (libcurl on Linux), with an ephemeral configuration so no
/// cookies or cache entries outlive a request.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// A transport whose requests give up after `timeout` seconds.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and returns whatever HTTP answer arrives; throws when none does.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return TransportResponse(status: http.statusCode, body: data)
    }
}
