/// An error from starting or running ``HTTPServer``.
///
/// Compare errors by ``code``; ``reason`` is for people and may change.
package struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier of what went wrong.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case addressInUse = "address_in_use"
            case addressNotAvailable = "address_not_available"
            case permissionDenied = "permission_denied"
            case hostNotResolved = "host_not_resolved"
            case bindFailed = "bind_failed"
            case invalidConfiguration = "invalid_configuration"
            case daemonStartFailed = "daemon_start_failed"
            case alreadyStarted = "already_started"
            case alreadyStopped = "already_stopped"
            case invalidTLSCredentials = "invalid_tls_credentials"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The port is already bound by another socket (`EADDRINUSE`).
        package static let addressInUse = Code(.addressInUse)
        /// The host is not an address of this machine (`EADDRNOTAVAIL`).
        package static let addressNotAvailable = Code(.addressNotAvailable)
        /// Binding needs a privilege the process lacks (`EACCES`), e.g. a port below 1024.
        package static let permissionDenied = Code(.permissionDenied)
        /// The configured host is neither an address nor a resolvable name.
        package static let hostNotResolved = Code(.hostNotResolved)
        /// Creating, binding or listening on the socket failed for another reason.
        package static let bindFailed = Code(.bindFailed)
        /// A configuration value is out of range; the reason names it.
        package static let invalidConfiguration = Code(.invalidConfiguration)
        /// libmicrohttpd refused to start the daemon.
        package static let daemonStartFailed = Code(.daemonStartFailed)
        /// `start()` was called on a server that is already running.
        package static let alreadyStarted = Code(.alreadyStarted)
        /// `start()` was called on a server that has been shut down (servers do not restart).
        package static let alreadyStopped = Code(.alreadyStopped)
        /// A TLS certificate or key file cannot be read, parsed, or does not match the other.
        package static let invalidTLSCredentials = Code(.invalidTLSCredentials)

        /// The code as a snake_case string, e.g. `address_in_use`.
        package var description: String { value.rawValue }
    }

    /// What went wrong.
    package let code: Code
    /// A human-readable explanation.
    package let reason: String
    /// The file that raised the error.
    package let file: String
    /// The line that raised the error.
    package let line: Int

    /// Creates an error.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `"<code>: <reason>"`.
    package var description: String { "\(code): \(reason)" }

    /// Errors are equal when their codes are.
    package static func == (lhs: HTTPServerError, rhs: HTTPServerError) -> Bool { lhs.code == rhs.code }
}
