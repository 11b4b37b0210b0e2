/// How Assent POSTs a signed JSON event to a tenant's endpoint (the outbox's webhooks and the synchronous
/// `push.created`). The core decides what to send and records the outcome; the transport only carries it, so every
/// outbound request goes through one client (`AssentHTTPClient`'s, over libcurl) that can be restricted in one place.
package protocol WebhookTransport: Sendable {
    /// POSTs `body` to `url` with `headers`, waiting at most `timeout` seconds for the answer.
    func post(url: String, headers: [(String, String)], body: [UInt8], timeout: Double) async -> WebhookPostResult
}

/// What one POST came to.
package enum WebhookPostResult: Sendable, Equatable {
    /// The endpoint answered with this HTTP status.
    case answered(status: Int)
    /// No answer: a short, stable reason (`timeout`, `connect_failed`, `address_refused`, ...) and what libcurl said
    /// (the address, the port), both for the server log only: a tenant is told `delivery_failed`.
    case failed(code: String, detail: String)
}
