package import AssentLog

/// The authentication history's domain side: what each outcome records (the row and its `sign_in.completed`
/// webhook), the refusals it writes itself, the pages it reads, and the retention sweep.
///
/// Where each outcome is written:
/// - approved and declined: in the answer's transaction (``ChallengeDecisions``), so a row exists exactly for an
///   answer that stands;
/// - expired: by the expiry count (``MetricsStore/countExpiredChallenges(through:signInEvents:)``, with its
///   webhook events), once per challenge across every instance, within one metrics interval of the expiry — not when a late answer finds the challenge closed
///   (that answer is a `refused` row of its own, reason `challenge_closed`) and not at the challenge sweep a day later.
///   Anonymous QR challenges no device claimed have no user and leave no row;
/// - refused: on its own (a refusal changes nothing else), only once the device proved it holds the credential —
///   an answer whose signature does not verify is not an attempt by anyone the history can name.
package struct SignInHistory: Sendable {
    let store: any SignInHistoryStore & TenantStore
    let webhooks: WebhookEvents
    let clock: WallClock
    let logger: Logger?

    /// A history in `store`, reported through `webhooks`.
    package init(store: any SignInHistoryStore & TenantStore, webhooks: WebhookEvents, clock: WallClock, logger: Logger? = nil) {
        self.store = store
        self.webhooks = webhooks
        self.clock = clock
        self.logger = logger
    }

    /// The row and events for `challenge`'s outcome at `now`, answered by `credentialID` with `factor`.
    package func recording(
        _ challenge: Challenge, tenant: Tenant, userID: String, outcome: SignIn.Outcome, reason: String?,
        credentialID: String?, factor: String?, now: Int64
    ) -> SignInRecording {
        var signIn = SignIn(challenge, userID: userID, at: now, outcome: outcome, reason: reason, credentialID: credentialID)
        signIn.factor = factor
        return SignInRecording(signIn, events: webhooks.signInCompleted(signIn, tenant: tenant))
    }

    /// Records a refused answer to `challenge` (`reason`: the refusal's error code), with its webhook. A refusal that
    /// cannot be recorded is logged, and the refusal still goes to the device.
    package func refused(
        _ challenge: Challenge, tenant: Tenant, userID: String, reason: String, credentialID: String, factor: String?
    ) async {
        let now = clock.nowMilliseconds()
        let recorded = recording(
            challenge, tenant: tenant, userID: userID, outcome: .refused, reason: reason, credentialID: credentialID,
            factor: factor, now: now)
        do {
            try await store.recordSignIn(recorded.signIn, events: recorded.events)
        } catch {
            logger?.log(.warning, "sign-in refusal not recorded", ["error": .string(String(describing: error))])
        }
    }

    /// What the expiry count (``MetricsStore/countExpiredChallenges(through:signInEvents:)``) queues for each
    /// `expired` row it writes: its `sign_in.completed` event when its tenant has a webhook URL (tenants read now).
    package func expiryEvents() async throws -> @Sendable (SignIn) -> [WebhookEvent] {
        let tenants = Dictionary(
            try await store.tenants().filter { $0.settings.webhookURL != nil }.map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let webhooks = self.webhooks
        return { signIn in tenants[signIn.tenantID].map { webhooks.signInCompleted(signIn, tenant: $0) } ?? [] }
    }

    /// A page of the history.
    package func page(_ query: SignInQuery) async throws -> [SignIn] {
        try await store.signIns(query)
    }

    /// Deletes, tenant by tenant, the rows older than its ``TenantSettings/signInHistoryRetentionDays`` at `now`, in
    /// bounded batches; how many went.
    package func sweep(now: Int64) async throws -> Int {
        var removed = 0
        for tenant in try await store.tenants() {
            let before = now - Int64(tenant.settings.signInHistoryRetentionDays) * 86_400_000
            removed += try await store.sweepSignInHistory(tenantID: tenant.id, before: before)
        }
        return removed
    }
}
