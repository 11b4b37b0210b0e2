import AssentCrypto

/// JSON Web Tokens (RFC 7519) in JWS compact serialization (RFC 7515), signed with HS256, ES256 or RS256.
///
/// Verification pins the algorithm to the key's type: a token's own `alg` header is only compared,
/// never trusted, so `none` and HS256/ES256 confusion are impossible.
package enum JWT: Sendable {
    /// Tokens longer than this are rejected before any parsing (bounds the work an attacker can cause).
    package static let maximumTokenByteCount = 64 * 1024

    /// Creates a signed token: header `{"alg":...,"typ":"JWT"}` (plus `"kid"` when `keyID` is given),
    /// the caller's JSON `payload` bytes verbatim, and the signature (ES256 as raw `r || s`), each base64url.
    ///
    /// The payload should be a JSON object with a numeric `exp`, or ``verify(_:using:now:leeway:)`` will reject it.
    ///
    /// - Throws: `CryptoError.invalidKey` for an HS256 key shorter than 32 bytes (RFC 7518 §3.2).
    package static func sign(payload: [UInt8], using key: SigningKey, keyID: String? = nil) throws -> String {
        var header = JSONWriter()
        header.object { header in
            header.member("alg", key.algorithm)
            header.member("typ", "JWT")
            header.member("kid", keyID)
        }
        let signingInput = Base64.encodeURL(header.take()) + "." + Base64.encodeURL(payload)
        let signature: [UInt8]
        switch key {
        case .hs256(let secret):
            try checkHMACKey(secret)
            signature = HMACSHA256.authenticate(Array(signingInput.utf8), key: secret)
        case .es256(let privateKey):
            let der = try privateKey.signature(for: Array(signingInput.utf8))
            guard let raw = ECDSASignature.raw(fromDER: der) else {
                throw CryptoError(.internalFailure, "the platform produced a signature that is not strict DER")
            }
            signature = raw
        #if os(Linux)
        case .rs256(let privateKey):
            signature = try privateKey.signature(for: Array(signingInput.utf8))
        #endif
        }
        return signingInput + "." + Base64.encodeURL(signature)
    }

    /// Verifies `token` with `key` and returns its payload (the JSON bytes that were signed).
    ///
    /// Checks, in order: three base64url parts; a header that is a JSON object whose `alg` equals the
    /// key's algorithm and that has no `crit`; the signature (constant-time for HS256; ES256 must be
    /// 64-byte raw `r || s`); a payload that is a JSON object with a numeric `exp` such that
    /// `now - leeway < exp` and, if present, a numeric `nbf` such that `nbf <= now + leeway`.
    /// `typ` is not checked. A negative `leeway` counts as 0.
    ///
    /// - Throws: `CryptoError.invalidToken` for anything malformed, a wrong algorithm or a bad signature;
    ///   `CryptoError.expiredToken` when only the time window fails (expired or not yet valid);
    ///   `CryptoError.invalidKey` for an HS256 key shorter than 32 bytes.
    package static func verify(_ token: String, using key: VerificationKey, now: Int64, leeway: Int64 = 0) throws -> [UInt8] {
        let parts = try split(token)
        guard let header = object(base64URL: parts.header) else {
            throw CryptoError(.invalidToken, "header is not base64url JSON object")
        }
        guard case .string(let algorithm) = header["alg"], algorithm == key.algorithm else {
            throw CryptoError(.invalidToken, "alg is not \(key.algorithm)")
        }
        guard header["crit"] == nil else {
            throw CryptoError(.invalidToken, "crit header extensions are not supported")
        }
        guard let signature = Base64.decodeURL(utf8: parts.signature) else {
            throw CryptoError(.invalidToken, "signature is not base64url")
        }
        let signingInput = Array(parts.signingInput)
        switch key {
        case .hs256(let secret):
            try checkHMACKey(secret)
            guard HMACSHA256.isValid(signature, for: signingInput, key: secret) else {
                throw CryptoError(.invalidToken, "HS256 signature does not verify")
            }
        case .es256(let publicKey):
            guard let der = ECDSASignature.der(fromRaw: signature),
                  publicKey.isValidSignature(der, for: signingInput) else {
                throw CryptoError(.invalidToken, "ES256 signature does not verify")
            }
        #if os(Linux)
        case .rs256(let publicKey):
            guard publicKey.isValidSignature(signature, for: signingInput) else {
                throw CryptoError(.invalidToken, "RS256 signature does not verify")
            }
        #endif
        }

        // Only signed bytes are parsed from here on.
        guard let payload = Base64.decodeURL(utf8: parts.payload), let claims = object(payload) else {
            throw CryptoError(.invalidToken, "payload is not base64url JSON object")
        }
        guard case .number(let expiry) = claims["exp"] else {
            throw CryptoError(.invalidToken, "payload has no numeric exp")
        }
        let leeway = Double(max(leeway, 0))
        let now = Double(now)
        guard now - leeway < expiry else {
            throw CryptoError(.expiredToken, "token expired")
        }
        if let nbf = claims["nbf"] {
            guard case .number(let notBefore) = nbf else {
                throw CryptoError(.invalidToken, "nbf is not numeric")
            }
            guard notBefore <= now + leeway else {
                throw CryptoError(.expiredToken, "token not yet valid")
            }
        }
        return payload
    }

    /// Reads the header's `kid` without verifying anything, to pick a verification key.
    /// Returns nil when the token is malformed or has no string `kid`. Never trust the result for anything else.
    package static func unverifiedKeyID(_ token: String) -> String? {
        guard let parts = try? split(token), let header = object(base64URL: parts.header),
              case .string(let keyID) = header["kid"] else {
            return nil
        }
        return keyID
    }

    /// A base64url part read as a JSON object by ``JSONReader`` (which refuses duplicate keys, so a header or payload
    /// cannot say two things about one claim); nil when it is not base64url or not an object.
    private static func object(base64URL part: ArraySlice<UInt8>) -> [String: JSONValue]? {
        guard let bytes = Base64.decodeURL(utf8: part) else { return nil }
        return object(bytes)
    }

    private static func object(_ bytes: [UInt8]) -> [String: JSONValue]? {
        guard case .object(let members)? = try? JSONReader.value(bytes) else { return nil }
        return members
    }

    /// The three dot-separated parts of a compact JWS, as UTF-8 slices of the token.
    private struct Parts {
        var header: ArraySlice<UInt8>
        var payload: ArraySlice<UInt8>
        var signature: ArraySlice<UInt8>
        /// `header "." payload`, exactly as it appears in the token.
        var signingInput: ArraySlice<UInt8>
    }

    private static func split(_ token: String) throws(CryptoError) -> Parts {
        let bytes = Array(token.utf8)
        guard bytes.count <= maximumTokenByteCount else {
            throw CryptoError(.invalidToken, "token longer than \(maximumTokenByteCount) bytes")
        }
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2 else { throw CryptoError(.invalidToken, "token does not have three parts") }
        return Parts(
            header: bytes[..<dots[0]],
            payload: bytes[(dots[0] + 1)..<dots[1]],
            signature: bytes[(dots[1] + 1)...],
            signingInput: bytes[..<dots[1]]
        )
    }

    private static func checkHMACKey(_ secret: [UInt8]) throws(CryptoError) {
        guard secret.count >= HMACSHA256.byteCount else {
            throw CryptoError(.invalidKey, "HS256 key must be at least 32 bytes (RFC 7518 §3.2), got \(secret.count)")
        }
    }
}
