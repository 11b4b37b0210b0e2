package import AssentCrypto

/// The `X-PowerAuth-Authorization` request header of PowerAuth 3.x:
///
/// `PowerAuth pa_version="3.3", pa_activation_id="<uuid>", pa_application_key="<b64 16 B>", pa_nonce="<b64 16 B>",
/// pa_signature_type="possession_biometry", pa_signature="<signature>"`
///
/// Parsing is order-independent and accepts quoted or bare values (as the reference's regex does); validation follows
/// `PowerAuthSignatureHttpHeaderValidator`: the activation id is a UUID (checked after lower-casing), nonce and
/// application key are Base64 of 16 bytes, the type is one of six, the signature is decimal
/// (`^[0-9]{8}(-[0-9]{8}){0,2}$`) or Base64 of 16, 32 or 48 bytes, and the version is 3.0–3.3.
package struct PowerAuthAuthorizationHeader: Sendable, Hashable {
    /// The header's name.
    package static let name = "X-PowerAuth-Authorization"

    /// `pa_version`, e.g. `3.3`.
    package var version: String
    /// `pa_activation_id`, lower-cased.
    package var activationID: String
    /// `pa_application_key`: the Base64 text of the application's 16-byte key.
    package var applicationKey: String
    /// `pa_nonce`: the Base64 text of 16 random bytes, exactly as sent (the signed data includes this text).
    package var nonce: String
    /// `pa_signature_type`.
    package var signatureType: PowerAuthSignatureType
    /// `pa_signature`.
    package var signature: String

    /// A header with every field given (not validated; ``headerValue`` writes what it is given).
    package init(version: String = PowerAuth.protocolVersion, activationID: String, applicationKey: String, nonce: String,
                signatureType: PowerAuthSignatureType, signature: String) {
        self.version = version
        self.activationID = activationID
        self.applicationKey = applicationKey
        self.nonce = nonce
        self.signatureType = signatureType
        self.signature = signature
    }

    /// The 16 nonce bytes (the field is validated on parsing).
    package var nonceBytes: [UInt8] { Base64.decode(nonce) ?? [] }

    /// The format `pa_version` implies (3.0 decimal, later base64).
    package var signatureFormat: PowerAuthSignatureFormat { PowerAuthSignatureFormat.forVersion(version) ?? .base64 }

    /// The header value, fields in the mobile SDK's order.
    package var headerValue: String {
        "PowerAuth pa_version=\"\(version)\", pa_activation_id=\"\(activationID)\", pa_application_key=\"\(applicationKey)\", "
            + "pa_nonce=\"\(nonce)\", pa_signature_type=\"\(signatureType.rawValue)\", pa_signature=\"\(signature)\""
    }

    /// Parses and validates a header value.
    ///
    /// - Throws: ``PowerAuthHeaderError``.
    package init(parsing value: String) throws(PowerAuthHeaderError) {
        let text = value.trimmingSpaces
        guard text.utf8.count <= 2048, text.utf8.starts(with: "PowerAuth ".utf8) else {
            throw PowerAuthHeaderError(.malformed, "the header must start with \"PowerAuth \"")
        }
        let fields = try Self.fields(String(text.dropFirst("PowerAuth ".count)))
        func field(_ name: String) throws(PowerAuthHeaderError) -> String {
            guard let value = fields[name], !value.isEmpty else {
                throw PowerAuthHeaderError(.missingField, "\(name) is missing")
            }
            return value
        }
        version = try field("pa_version")
        guard PowerAuth.supportedVersions.contains(version) else {
            throw PowerAuthHeaderError(.unsupportedVersion, "pa_version must be one of 3.0, 3.1, 3.2, 3.3")
        }
        activationID = try field("pa_activation_id").lowercased()
        guard Self.isUUID(activationID) else {
            throw PowerAuthHeaderError(.invalidActivationID, "pa_activation_id is not a UUID")
        }
        applicationKey = try field("pa_application_key")
        guard Base64.decode(applicationKey)?.count == 16 else {
            throw PowerAuthHeaderError(.invalidApplicationKey, "pa_application_key must be Base64 of 16 bytes")
        }
        nonce = try field("pa_nonce")
        guard Base64.decode(nonce)?.count == 16 else {
            throw PowerAuthHeaderError(.invalidNonce, "pa_nonce must be Base64 of 16 bytes")
        }
        guard let type = PowerAuthSignatureType(rawValue: try field("pa_signature_type")) else {
            throw PowerAuthHeaderError(.invalidSignatureType, "pa_signature_type is not a PowerAuth signature type")
        }
        signatureType = type
        signature = try field("pa_signature")
        guard Self.isDecimalSignature(signature) || Self.isBase64Signature(signature) else {
            throw PowerAuthHeaderError(.invalidSignature, "pa_signature has neither the decimal nor the Base64 form")
        }
    }

    /// Splits `key="value", key=value ...` into a dictionary (a repeated key keeps its first value). Works on UTF-8
    /// bytes: names are `[A-Za-z0-9_]`, separators are spaces, tabs and commas.
    private static func fields(_ text: String) throws(PowerAuthHeaderError) -> [String: String] {
        let bytes = Array(text.utf8)
        var result: [String: String] = [:]
        var index = 0
        func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x2C || byte == 0x09 }
        func isNameByte(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
        }
        while index < bytes.count, isSeparator(bytes[index]) { index += 1 }
        while index < bytes.count {
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart else { throw PowerAuthHeaderError(.malformed, "expected a field name") }
            let key = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw PowerAuthHeaderError(.malformed, "expected = after \(key)")
            }
            index += 1
            let valueStart: Int
            let valueEnd: Int
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                valueStart = index + 1
                guard let close = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else {
                    throw PowerAuthHeaderError(.malformed, "unterminated quote in \(key)")
                }
                valueEnd = close
                index = close + 1
            } else {
                valueStart = index
                while index < bytes.count, !isSeparator(bytes[index]) { index += 1 }
                valueEnd = index
            }
            if result[key] == nil { result[key] = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self) }
            while index < bytes.count, isSeparator(bytes[index]) { index += 1 }
        }
        return result
    }

    /// `^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            case 14:
                guard (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(byte) else { return false }
            case 19:
                guard [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(byte) else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                    return false
                }
            }
        }
        return true
    }

    /// `^[0-9]{8}(-[0-9]{8}){0,2}$`.
    static func isDecimalSignature(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return (1...3).contains(groups.count)
            && groups.allSatisfy { $0.utf8.count == 8 && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
    }

    /// Standard Base64 of 16, 32 or 48 bytes (24, 44 or 64 characters).
    static func isBase64Signature(_ text: String) -> Bool {
        guard [24, 44, 64].contains(text.utf8.count), let bytes = Base64.decodeStrict(text) else { return false }
        return [16, 32, 48].contains(bytes.count)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
