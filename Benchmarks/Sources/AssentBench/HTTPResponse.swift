/// A fully read response: status and the `Content-Length` body.
struct HTTPResponse {
    var status: Int
    var body: [UInt8]

    var isSuccess: Bool { (200..<300).contains(status) }

    /// The body for an error sample, cut short and with control characters
    /// replaced, so the summary stays one line.
    func bodySnippet(limit: Int = 160) -> String {
        let cut = body.prefix(limit).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }
        var text = String(decoding: cut, as: UTF8.self)
        if body.count > limit { text += "…" }
        return text
    }
}
