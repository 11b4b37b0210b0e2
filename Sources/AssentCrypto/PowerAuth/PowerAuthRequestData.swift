/// The normalized request data a PowerAuth signature covers (`powerauth-crypto` §"Normalized data"):
///
/// `METHOD & B64(UTF8(uriId)) & NONCE_B64 & B64(body) & APPLICATION_SECRET`
///
/// with `&` the literal byte 0x26, standard padded Base64, and the application secret appended as its Base64 *text*.
/// For a GET request the body is the canonical query string (``canonicalQuery(_:)``).
public enum PowerAuthRequestData: Sendable {
    /// The application "secret" offline signatures use instead of the real one.
    public static let offlineApplicationSecret = "offline"

    /// The signature base string without the application secret (`REQUEST_DATA`).
    public static func requestData(method: String, uriID: String, nonce: [UInt8], body: [UInt8]) -> String {
        [method.uppercased(), Base64.encode(Array(uriID.utf8)), Base64.encode(nonce), Base64.encode(body)]
            .joined(separator: "&")
    }

    /// `DATA`: the bytes the signature's HMACs cover.
    ///
    /// - Parameter applicationSecret: the Base64 text of the 16-byte application secret, appended as is.
    public static func normalized(method: String, uriID: String, nonce: [UInt8], body: [UInt8], applicationSecret: String) -> [UInt8] {
        Array((requestData(method: method, uriID: uriID, nonce: nonce, body: body) + "&" + applicationSecret).utf8)
    }

    /// The canonical form of query parameters: pairs sorted by key, then by value, each written
    /// `urlencode(key)=urlencode(value)`, joined with `&`. Its UTF-8 bytes are the "body" of a signed GET.
    public static func canonicalQuery(_ pairs: [(key: String, value: String)]) -> String {
        pairs.sorted { left, right in
            if left.key != right.key { return left.key.utf16.lexicographicallyPrecedes(right.key.utf16) }
            return left.value.utf16.lexicographicallyPrecedes(right.value.utf16)
        }
        .map { formEncode($0.key) + "=" + formEncode($0.value) }
        .joined(separator: "&")
    }

    /// The canonical form of a raw query string (without `?`): split on `&` and the first `=` of each part,
    /// form-decode each key and value (`+` is a space, `%XX` a byte), then ``canonicalQuery(_:)``. Empty parts are
    /// dropped. Returns nil when a `%` escape is malformed or the decoded bytes are not UTF-8.
    public static func canonicalQuery(rawQuery: String) -> String? {
        var pairs: [(key: String, value: String)] = []
        for part in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = formDecode(String(pieces[0])) else { return nil }
            let value = pieces.count > 1 ? formDecode(String(pieces[1])) : ""
            guard let value else { return nil }
            pairs.append((key, value))
        }
        return canonicalQuery(pairs)
    }

    /// `application/x-www-form-urlencoded` encoding as Java's `URLEncoder`: `A-Z a-z 0-9 - _ . *` stay, a space
    /// becomes `+`, every other UTF-8 byte `%XX` in upper case.
    public static func formEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "*"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Form decoding: `+` is a space, `%XX` a byte. Nil for a malformed escape or bytes that are not UTF-8.
    public static func formDecode(_ text: String) -> String? {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = nibble(bytes[index + 1]), let low = nibble(bytes[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }
}
