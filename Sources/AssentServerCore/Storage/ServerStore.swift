/// Everything `assentd` keeps, split by concept so that each service asks for only the part it uses
/// (``TenantStore``, ``UserStore``, ``ActionStore``, ``CredentialStore``, ``ChallengeStore``,
/// ``WebhookOutbox``, ``ActivationStore``, ``PushDeliveryStore``, ``PushGuardStore``, ``StoreMaintenance``,
/// ``SeedStore``, ``MetricsStore``, ``AuditStore``, ``ConsoleStore``, ``UserDirectoryStore``, ``OverviewStore``, ``AttestationChallengeStore``, ``UserDataStore``, ``SignInHistoryStore``). Both backends — the embedded SQLite store and the PostgreSQL one shared by several instances — are
/// all of it, interchangeably, and
/// `DatabaseLocation.open(connections:)` hands back this, so the application, the CLI and the tests use either store
/// for everything.
///
/// Every method of every store protocol is one atomic unit: it either happens completely and durably before it
/// returns, or not at all. Domain code sees only domain types, never SQL. Where a change depends on what is stored,
/// the store runs the read and the write in one transaction and the domain's rule comes in as a closure
/// (``ActionStore/trackAction(_:user:decide:)``,
/// ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:reenrol:events:)``,
/// ``ActivationStore/updateActivation(id:_:)``), so the rule is written once and the atomicity stays in the store.
package typealias ServerStore = TenantStore & UserStore & ActionStore & CredentialStore & ChallengeStore
    & WebhookOutbox & ActivationStore & PushDeliveryStore & PushGuardStore & StoreMaintenance & SeedStore
    & MetricsStore & AuditStore & ConsoleStore & UserDirectoryStore & OverviewStore & AttestationChallengeStore & UserDataStore
    & SignInHistoryStore
