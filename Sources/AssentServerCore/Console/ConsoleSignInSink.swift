package import AssentLog

/// Where console sign-ins and sign-outs go: ``AuditConsoleSignInSink`` in assentd (the audit log and the log),
/// ``LoggingConsoleSignInSink`` (the log only) elsewhere.
package protocol ConsoleSignInSink: Sendable {
    /// Records one sign-in or refusal.
    func record(_ signIn: ConsoleSignIn) async
    /// Records that `principal` signed out of `tenantID`'s console (its session ended).
    func recordSignOut(tenantID: String, principal: String) async
}

/// Writes each console sign-in as one structured log line (no key, token or session id: there are none in it).
package struct LoggingConsoleSignInSink: ConsoleSignInSink {
    private let logger: Logger

    /// A sink writing to `logger`.
    package init(logger: Logger) { self.logger = logger }

    package func record(_ signIn: ConsoleSignIn) async {
        var fields: [String: LogValue] = [
            "event": .string("console.sign-in"), "accepted": .bool(signIn.accepted),
            "remoteAddress": .string(signIn.remoteAddress),
        ]
        if let tenant = signIn.tenantID { fields["tenantId"] = .string(tenant) }
        if let principal = signIn.principal { fields["principal"] = .string(principal) }
        logger.log(signIn.accepted ? .info : .warning, signIn.accepted ? "console sign-in" : "console sign-in refused", fields)
    }

    package func recordSignOut(tenantID: String, principal: String) async {
        logger.info("console sign-out", [
            "event": .string("console.sign-out"), "tenantId": .string(tenantID), "principal": .string(principal),
        ])
    }
}
