import AssentCrypto

/// The server side of the RFC 6455 §4.2 opening handshake.
struct WebSocketHandshake: Sendable, Equatable {
    /// The client's `Sec-WebSocket-Key` as sent.
    let key: String
    /// The client's `Sec-WebSocket-Protocol` items, in order (all header lines, comma-split, trimmed).
    let offeredProtocols: [String]

    /// The GUID of RFC 6455 §1.3 appended to the key before hashing.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The verdict on an upgrade request.
    enum Validation: Equatable {
        case valid(WebSocketHandshake)
        /// The JSON error to send instead.
        case invalid(HTTPResponse)
    }

    /// Checks a request on a WebSocket route.
    ///
    /// Order of checks: `Upgrade` must list `websocket` (else `426
    /// upgrade_required`); `Connection` must list `Upgrade` (else `400`);
    /// `Sec-WebSocket-Version` must be `13` (else `426
    /// unsupported_websocket_version`, with `Sec-WebSocket-Version: 13`); one
    /// `Sec-WebSocket-Key` that is base64 of 16 bytes, and every offered
    /// subprotocol a token (else `400 bad_websocket_handshake`).
    static func validate(method: String, headers: HTTPHeaders) -> Validation {
        guard method == "GET", tokens(headers, "Upgrade").contains(where: { asciiLowercased($0) == "websocket" }) else {
            return .invalid(upgradeRequired())
        }
        guard tokens(headers, "Connection").contains(where: { asciiLowercased($0) == "upgrade" }) else {
            return .invalid(bad("The Connection header must list Upgrade."))
        }
        let versions = headers.values(for: "Sec-WebSocket-Version")
        guard versions.count == 1, trimmed(versions[0][...]) == "13" else {
            var response = HTTPResponse.error(426, code: "unsupported_websocket_version", description: "Only WebSocket version 13 is supported.")
            response.headers.add("Sec-WebSocket-Version", "13")
            return .invalid(response)
        }
        let keys = headers.values(for: "Sec-WebSocket-Key")
        guard keys.count == 1, let decoded = Base64.decodeStrict(trimmed(keys[0][...])), decoded.count == 16 else {
            return .invalid(bad("Sec-WebSocket-Key must be the base64 encoding of 16 bytes."))
        }
        let offered = tokens(headers, "Sec-WebSocket-Protocol")
        guard offered.allSatisfy(isToken) else {
            return .invalid(bad("Every Sec-WebSocket-Protocol item must be a token."))
        }
        return .valid(WebSocketHandshake(key: trimmed(keys[0][...]), offeredProtocols: offered))
    }

    /// `Sec-WebSocket-Accept` for `key`: base64(SHA-1(key + GUID)).
    static func acceptValue(forKey key: String) -> String {
        let digest = SHA1.hash(Array((key + guid).utf8))
        return Base64.encode(digest)
    }

    /// The `101` for this handshake (X-Request-Id is added when it is sent).
    func switchingProtocols(subprotocol: String?) -> HTTPResponse {
        var headers = HTTPHeaders([("Upgrade", "websocket"), ("Sec-WebSocket-Accept", Self.acceptValue(forKey: key))])
        if let subprotocol { headers.add("Sec-WebSocket-Protocol", subprotocol) }
        return HTTPResponse(status: 101, headers: headers)
    }

    /// `426 upgrade_required`, for a request on a WebSocket route that does not ask to upgrade.
    static func upgradeRequired() -> HTTPResponse {
        var response = HTTPResponse.error(426, code: "upgrade_required", description: "This route only serves WebSocket upgrades.")
        response.headers.add("Upgrade", "websocket")
        response.headers.add("Sec-WebSocket-Version", "13")
        return response
    }

    private static func bad(_ description: String) -> HTTPResponse {
        .error(400, code: "bad_websocket_handshake", description: description)
    }

    /// The comma-separated items of every `name` header line, trimmed, empty ones dropped.
    private static func tokens(_ headers: HTTPHeaders, _ name: String) -> [String] {
        headers.values(for: name).flatMap { value in
            value.split(separator: ",").map { trimmed($0) }.filter { !$0.isEmpty }
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[start...end])
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// An RFC 7230 token: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
