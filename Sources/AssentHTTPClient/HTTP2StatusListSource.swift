import AssentServerCore

/// ``AndroidStatusListSource`` over ``HTTP2Client``: `GET` of the operator's `--android-attestation-status-url`
/// (Google publishes the list at https://android.googleapis.com/attestation/status; Assent never reaches it unless the
/// operator names it). An operator URL like `--apns-url`: the client that reads it is the operator's, not subject to
/// the guard on URLs tenants supply.
package struct HTTP2StatusListSource: AndroidStatusListSource {
    private let client: HTTP2Client
    private let url: String
    private let timeout: Double
    private let maximumBytes: Int

    /// Reads `url` through `client`, waiting at most `timeout` seconds for at most `maximumBytes` (the status
    /// list's limit).
    package init(client: HTTP2Client, url: String, maximumBytes: Int, timeout: Double = 30) {
        self.client = client
        self.url = url
        self.maximumBytes = maximumBytes
        self.timeout = timeout
    }

    package var location: String { url }

    package func read() async throws -> [UInt8] {
        var request = HTTP2Client.Request(url: url)
        request.method = "GET"
        request.timeout = timeout
        request.headers = [("Accept", "application/json")]
        // One byte more than accepted: a longer answer is refused instead of parsed cut.
        request.maximumBodyBytes = maximumBytes + 1
        let response: HTTP2Client.Response
        do {
            response = try await client.send(request)
        } catch let error as HTTP2Client.TransportError {
            throw AndroidStatusListFetchFailed(error.description)
        }
        guard response.status == 200 else { throw AndroidStatusListFetchFailed("HTTP \(response.status)") }
        guard response.body.count <= maximumBytes else {
            throw AndroidStatusListFetchFailed("the answer is larger than \(maximumBytes) bytes")
        }
        return response.body
    }
}
