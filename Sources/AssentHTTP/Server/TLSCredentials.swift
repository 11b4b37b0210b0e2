internal import CHTTPShims
import Foundation

/// The certificate chain and private key an ``HTTPServer`` serves HTTPS with (through libmicrohttpd's GnuTLS
/// support), replaceable while it runs: ``reload(certificateFile:keyFile:)`` makes every handshake from then on use
/// the new pair, while connections already established (WebSockets included) keep theirs.
///
/// Only TLS 1.2 and 1.3 are offered. The key must be unencrypted PEM (PKCS#8, PKCS#1 or SEC1); the certificate file
/// holds the leaf first, then any intermediates (at most 16 in all).
package final class TLSCredentials: @unchecked Sendable {
    // The C holder is itself thread-safe (a mutex around the current pair); this class only owns it.
    let pointer: OpaquePointer

    /// Reads and checks the two files. Throws `invalidTLSCredentials` naming the file or the problem.
    package init(certificateFile: String, keyFile: String) throws(HTTPServerError) {
        let (certificate, key) = try Self.read(certificateFile: certificateFile, keyFile: keyFile)
        var error = [CChar](repeating: 0, count: 256)
        let created = certificate.withUnsafeBufferPointer { cert in
            key.withUnsafeBufferPointer { key in
                assent_http_tls_create(cert.baseAddress!, cert.count, key.baseAddress!, key.count, &error, error.count)
            }
        }
        guard let created else {
            throw HTTPServerError(.invalidTLSCredentials, "\(certificateFile), \(keyFile): \(Self.message(error))")
        }
        pointer = created
    }

    deinit { assent_http_tls_free(pointer) }

    /// Reads the two files again and serves them to new handshakes. On any problem the pair in use stays and this
    /// throws `invalidTLSCredentials`.
    package func reload(certificateFile: String, keyFile: String) throws(HTTPServerError) {
        let (certificate, key) = try Self.read(certificateFile: certificateFile, keyFile: keyFile)
        var error = [CChar](repeating: 0, count: 256)
        let result = certificate.withUnsafeBufferPointer { cert in
            key.withUnsafeBufferPointer { key in
                assent_http_tls_reload(pointer, cert.baseAddress!, cert.count, key.baseAddress!, key.count, &error, error.count)
            }
        }
        guard result == 0 else {
            throw HTTPServerError(.invalidTLSCredentials, "\(certificateFile), \(keyFile): \(Self.message(error))")
        }
    }

    private static func read(certificateFile: String, keyFile: String) throws(HTTPServerError) -> ([CChar], [CChar]) {
        func contents(_ path: String, _ what: String) throws(HTTPServerError) -> [CChar] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw HTTPServerError(.invalidTLSCredentials, "cannot read the TLS \(what) file \(path)")
            }
            guard !data.isEmpty else { throw HTTPServerError(.invalidTLSCredentials, "the TLS \(what) file \(path) is empty") }
            return data.map { CChar(bitPattern: $0) }
        }
        return (try contents(certificateFile, "certificate"), try contents(keyFile, "key"))
    }

    private static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
