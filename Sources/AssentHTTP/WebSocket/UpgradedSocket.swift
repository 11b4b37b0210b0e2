internal import CHTTPShims
#if canImport(Glibc)
import Glibc
#endif

/// The descriptor of a connection libmicrohttpd upgraded, owned by whoever holds it until ``close()``.
///
/// Without TLS the descriptor is the TCP connection and libmicrohttpd has already let go of it. Under TLS it is the
/// application's end of a socketpair that libmicrohttpd's threads forward through the TLS session, and libmicrohttpd
/// keeps the connection until told it is done: ``close()`` closes the descriptor and then tells it
/// (`MHD_UPGRADE_ACTION_CLOSE`), which ends the TLS session and the TCP connection.
struct UpgradedSocket: @unchecked Sendable {
    /// The non-blocking descriptor frames are read from and written to.
    let fd: Int32
    /// libmicrohttpd's upgrade handle under TLS; nil without TLS.
    private let handle: UnsafeMutableRawPointer?

    init(fd: Int32, handle: UnsafeMutableRawPointer?) {
        self.fd = fd
        self.handle = handle
    }

    /// Closes the descriptor and releases libmicrohttpd's connection; exactly once.
    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        if let handle { assent_http_upgrade_close(handle) }
    }
}
