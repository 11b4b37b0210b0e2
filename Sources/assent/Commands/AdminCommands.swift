/// `assent admin ...`: operating a tenant — on the database directly, or through a running server's API.
enum AdminCommands {
    /// The `admin` group.
    static let group = Command.group(
        "admin", "manage tenants on the database and call the server API",
        details: """
            attestation works on local files only; tenant, token, seed, seed-sign-ins, audit, backup, restore,
            master-key and user push-reset work on assentd's database (--database PATH|URL or ASSENT_DATABASE;
            default .assent/assent.sqlite, assentd's own default and what `make run` uses); the other
            commands call a running assentd (--url BASE or ASSENT_URL, default \(ServerConnection.defaultURL)) with a
            tenant's secret key from ASSENT_SECRET_KEY.
            """,
        [
            TenantCommands.group, AdminTokenCommands.group, ServerAPICommands.track, ServerAPICommands.action, ServerAPICommands.validate,
            UserCommands.user, UserCommands.authenticators, ChallengeCommands.group, ActivationCommands.group,
            SeedCommand.command, SeedSignInsCommand.command, AuditCommands.group, BackupCommands.backup,
            BackupCommands.restore, MasterKeyCommands.group, AttestationCommands.group,
        ])
}
