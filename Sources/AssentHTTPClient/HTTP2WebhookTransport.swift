package import AssentServerCore

/// ``WebhookTransport`` over ``HTTP2Client``: HTTP/2 where the endpoint speaks it, HTTP/1.1 otherwise.
package struct HTTP2WebhookTransport: WebhookTransport {
    private let client: HTTP2Client

    /// Posts through `client`.
    package init(client: HTTP2Client) { self.client = client }

    package func post(url: String, headers: [(String, String)], body: [UInt8], timeout: Double) async -> WebhookPostResult {
        var request = HTTP2Client.Request(url: url)
        request.timeout = timeout
        request.headers = headers
        request.body = body
        do {
            return .answered(status: try await client.send(request).status)
        } catch let error as HTTP2Client.TransportError {
            return .failed(code: error.code, detail: error.reason)
        } catch {
            return .failed(code: "transport_failed", detail: String(describing: error))
        }
    }
}
