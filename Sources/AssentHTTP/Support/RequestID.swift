/// Request identifiers: accepted from a client's `X-Request-Id` when sane,
/// otherwise generated.
enum RequestID {
    /// The longest incoming id that is accepted.
    static let maximumLength = 128

    /// Whether `candidate` is a usable incoming id: 1...128 characters of `[A-Za-z0-9._-]`.
    static func isAcceptable(_ candidate: String) -> Bool {
        let utf8 = candidate.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// A fresh random id: 16 lowercase hex characters (64 random bits).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 {
            bytes[i] = digits[Int((value >> (UInt64(60 - 4 * i))) & 0xF)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `incoming` when acceptable, otherwise a generated id.
    static func resolve(incoming: String?) -> String {
        if let incoming, isAcceptable(incoming) { return incoming }
        return generate()
    }
}
