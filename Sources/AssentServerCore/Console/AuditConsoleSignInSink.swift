package import AssentLog

/// Records every accepted console sign-in and every sign-out in its tenant's audit log (kinds `console.sign_in` and
/// `console.sign_out`, actor the principal: `secret-key` or `admin-token:<id>`), and logs every attempt and sign-out as
/// ``LoggingConsoleSignInSink`` does. A refused attempt
/// names no tenant, so it is only logged (and counted by the sign-in rate limit). An audit write that fails is logged;
/// the sign-in it describes has already happened.
package struct AuditConsoleSignInSink: ConsoleSignInSink {
    private let audit: AuditLog
    private let log: LoggingConsoleSignInSink
    private let logger: Logger

    /// A sink writing accepted sign-ins to `audit` and every attempt to `logger`.
    package init(audit: AuditLog, logger: Logger) {
        self.audit = audit
        self.log = LoggingConsoleSignInSink(logger: logger)
        self.logger = logger
    }

    package func record(_ signIn: ConsoleSignIn) async {
        await log.record(signIn)
        guard signIn.accepted, let tenantID = signIn.tenantID, let principal = signIn.principal else { return }
        await audited(.consoleSignIn, tenantID: tenantID, principal: principal)
    }

    package func recordSignOut(tenantID: String, principal: String) async {
        await log.recordSignOut(tenantID: tenantID, principal: principal)
        await audited(.consoleSignOut, tenantID: tenantID, principal: principal)
    }

    private func audited(_ kind: AuditKind, tenantID: String, principal: String) async {
        do {
            _ = try await audit.record(tenantID: tenantID, kind, actor: principal)
        } catch {
            logger.error("audit entry not recorded", [
                "tenantId": .string(tenantID), "kind": .string(kind.rawValue), "error": .string(String(describing: error)),
            ])
        }
    }
}
