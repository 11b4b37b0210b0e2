internal import COpenSSL
import AssentCrypto
import Foundation

/// One X.509 certificate parsed by OpenSSL (`d2i_X509`), the only place AssentAttestation touches OpenSSL's X.509.
///
/// `@unchecked Sendable`: the `X509` is never mutated by this code after parsing; OpenSSL 3 computes its cached
/// extension flags under its own lock, so concurrent read-only use (verify, extension lookup) is safe.
package final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The certificate as it was parsed (DER).
    package let der: [UInt8]

    /// Parses one DER certificate that spans all of `der`.
    package init(der: [UInt8]) throws(AttestationError) {
        guard !der.isEmpty else { throw AttestationError(.malformed, "an empty certificate") }
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let result = d2i_X509(nil, &cursor, buffer.count)
            if let cursor, let base = buffer.baseAddress { consumed = cursor - base }
            return result
        }
        guard let parsed else { throw AttestationError.openSSL(.malformed, "d2i_X509") }
        guard consumed == der.count else {
            X509_free(parsed)
            throw AttestationError(.malformed, "\(der.count - consumed) bytes after a certificate")
        }
        pointer = parsed
        self.der = der
    }

    deinit {
        X509_free(pointer)
    }

    /// The certificates of a PEM text, in order (every `CERTIFICATE` block; at least one).
    package static func certificates(pem text: String) throws(AttestationError) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        var rest = Substring(text)
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw AttestationError(.malformed, "PEM: a CERTIFICATE block without its end line")
            }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Base64.decodeStrict(String(body)) else { throw AttestationError(.malformed, "PEM: a block is not base64") }
            certificates.append(try X509Certificate(der: der))
            rest = rest[stop.upperBound...]
        }
        guard !certificates.isEmpty else { throw AttestationError(.malformed, "PEM: no CERTIFICATE block") }
        return certificates
    }

    /// The subject in OpenSSL's one-line form, e.g. `/CN=Apple App Attestation Root CA/O=Apple Inc./ST=California`.
    package var subject: String {
        var buffer = [CChar](repeating: 0, count: 512)
        let written = buffer.withUnsafeMutableBufferPointer { X509_NAME_oneline(X509_get_subject_name(pointer), $0.baseAddress, Int32($0.count)) }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// SHA-256 of the DER certificate, lowercase hex (how logs and `check-config` name a root).
    package var sha256Hex: String {
        SHA256.hash(der).map { String(format: "%02x", $0) }.joined()
    }

    /// The serial number as lowercase hex without leading zeros, as Google's status list keys it.
    package var serialHex: String {
        get throws(AttestationError) {
            // TBSCertificate: [0] version (optional), serialNumber INTEGER, ...
            guard let tbsNode = try DERReader.parse(der).sequence().first else {
                throw AttestationError(.malformed, "a certificate without a TBSCertificate")
            }
            let tbs = try tbsNode.sequence()
            guard let serial = tbs.first(where: { $0.isUniversal(DERNode.integer) }) else {
                throw AttestationError(.malformed, "a certificate without a serial number")
            }
            return Self.hexWithoutLeadingZeros(try serial.integerBytes())
        }
    }

    static func hexWithoutLeadingZeros(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined().drop { $0 == "0" }
        return hex.isEmpty ? "0" : String(hex)
    }

    /// The DER SubjectPublicKeyInfo of the certificate's key.
    package func publicKeySPKI() throws(AttestationError) -> [UInt8] {
        guard let key = X509_get0_pubkey(pointer) else { throw AttestationError.openSSL(.malformed, "X509_get0_pubkey") }
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { throw AttestationError.openSSL(.malformed, "i2d_PUBKEY") }
        var spki = [UInt8](repeating: 0, count: Int(length))
        let written = spki.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        guard written == length else { throw AttestationError.openSSL(.malformed, "i2d_PUBKEY") }
        return spki
    }

    /// The value (the OCTET STRING's content) of the extension `oid`, nil when absent; an extension that appears
    /// twice is malformed.
    package func extensionValue(oid: String) throws(AttestationError) -> [UInt8]? {
        guard let object = OBJ_txt2obj(oid, 1) else { throw AttestationError.openSSL(.malformed, "OBJ_txt2obj") }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(pointer, object, -1)
        guard index >= 0 else {
            AttestationError.clearOpenSSLErrors()
            return nil
        }
        guard X509_get_ext_by_OBJ(pointer, object, index) < 0 else {
            throw AttestationError(.malformed, "extension \(oid) appears twice")
        }
        guard let ext = X509_get_ext(pointer, index), let data = X509_EXTENSION_get_data(ext),
              let bytes = ASN1_STRING_get0_data(data) else {
            throw AttestationError.openSSL(.malformed, "X509_get_ext")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))))
    }

    /// Whether `seconds` (since the epoch) lies within notBefore…notAfter.
    package func isValid(atSeconds seconds: Int64) -> Bool {
        var time = time_t(seconds)
        let afterStart = X509_cmp_time(X509_get0_notBefore(pointer), &time) == -1
        let beforeEnd = X509_cmp_time(X509_get0_notAfter(pointer), &time) == 1
        AttestationError.clearOpenSSLErrors()
        return afterStart && beforeEnd
    }

    /// Whether this certificate's signature verifies with `issuer`'s public key (names are not compared: Android's
    /// chains are checked by signature, as Google's verifier does).
    package func isSigned(by issuer: X509Certificate) -> Bool {
        guard let key = X509_get0_pubkey(issuer.pointer) else {
            AttestationError.clearOpenSSLErrors()
            return false
        }
        let verified = X509_verify(pointer, key) == 1
        AttestationError.clearOpenSSLErrors()
        return verified
    }

    /// Verifies `self` (the leaf) through `intermediates` to one of `roots` with OpenSSL's `X509_verify_cert`, an
    /// explicit store holding only `roots` (each a trust anchor, self-signed or not), and the explicit time `seconds`
    /// (every certificate's validity included, the anchor's too).
    ///
    /// - Throws: `validity` when a certificate is outside its validity at `seconds`, `root` when no path reaches one
    ///   of `roots`, `chain` for any other failure (a bad signature, a CA flag missing).
    package func verifyChain(intermediates: [X509Certificate], roots: [X509Certificate], atSeconds seconds: Int64) throws(AttestationError) {
        guard let store = X509_STORE_new() else { throw AttestationError.openSSL(.chain, "X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
            throw AttestationError.openSSL(.chain, "X509_STORE_add_cert")
        }
        // The store holds only trust anchors, so an operator's anchor that is not self-signed (a private CA's
        // intermediate) ends a path too.
        guard X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN)) == 1 else {
            throw AttestationError.openSSL(.chain, "X509_STORE_set_flags")
        }
        guard let untrusted = OPENSSL_sk_new_null() else { throw AttestationError.openSSL(.chain, "OPENSSL_sk_new_null") }
        defer { OPENSSL_sk_free(untrusted) }  // the stack only borrows the certificates
        for certificate in intermediates where OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.pointer)) <= 0 {
            throw AttestationError.openSSL(.chain, "OPENSSL_sk_push")
        }
        guard let context = X509_STORE_CTX_new() else { throw AttestationError.openSSL(.chain, "X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, pointer, untrusted) == 1 else {
            throw AttestationError.openSSL(.chain, "X509_STORE_CTX_init")
        }
        X509_STORE_CTX_set_time(context, 0, time_t(seconds))
        let verified = X509_verify_cert(context)
        let failure = X509_STORE_CTX_get_error(context)
        AttestationError.clearOpenSSLErrors()
        guard verified != 1 else { return }
        let text = X509_verify_cert_error_string(Int(failure)).map { String(cString: $0) } ?? "error \(failure)"
        switch failure {
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            throw AttestationError(.validity, "X509_verify_cert: \(text)")
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            throw AttestationError(.root, "X509_verify_cert: \(text)")
        default:
            throw AttestationError(.chain, "X509_verify_cert: \(text)")
        }
    }
}
