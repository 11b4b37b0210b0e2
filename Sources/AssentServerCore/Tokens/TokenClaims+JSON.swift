import AssentWire

// Claims in and out of a token's payload on every bearer request: `JSONReader` and `JSONWriter` instead of
// `JSONDecoder` and `JSONEncoder` (the payload is verified before it is read, and the fields are the same either way:
// a token issued by one build verifies in the other).
extension TokenClaims {
    /// The claims in a verified payload; nil when a claim is missing or of the wrong type.
    init?(payload: [UInt8]) {
        guard let members = try? JSONReader.object(payload) else { return nil }
        var strings: [String: String] = [:]
        var numbers: [String: Int64] = [:]
        for (key, value) in members {
            switch value {
            case .string(let string): strings[key] = string
            case .number(let number): if let whole = Int64(exactly: number) { numbers[key] = whole }
            default: break
            }
        }
        guard let iss = strings["iss"], let tid = strings["tid"], let sub = strings["sub"], let act = strings["act"],
              let idk = strings["idk"], let typ = strings["typ"].flatMap(Kind.init(rawValue:)), let iat = numbers["iat"],
              let exp = numbers["exp"], let jti = strings["jti"]
        else { return nil }
        // A scope present but not a string is refused, as the decoder refused it.
        if let scope = members.first(where: { $0.key == "scope" })?.value, scope != .null, strings["scope"] == nil {
            return nil
        }
        self.init(iss: iss, tid: tid, sub: sub, act: act, idk: idk, scope: strings["scope"], typ: typ, iat: iat, exp: exp, jti: jti)
    }

    /// The payload: the claims as a JSON object (keys sorted, `scope` left out when nil).
    var payload: [UInt8] {
        var writer = JSONWriter(capacity: 192)
        writer.object { writer in
            writer.member("act", act)
            writer.member("exp", exp)
            writer.member("iat", iat)
            writer.member("idk", idk)
            writer.member("iss", iss)
            writer.member("jti", jti)
            writer.member("scope", scope)
            writer.member("sub", sub)
            writer.member("tid", tid)
            writer.member("typ", typ.rawValue)
        }
        return writer.take()
    }
}
