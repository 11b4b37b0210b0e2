import AssentHTTP
import AssentLog
import AssentWire
import AssentServerCore
import Foundation

/// The HTML of the users section's pages (``ConsoleUsers``, ``ConsoleChallengePage``): every value escaped with
/// ``MarkupText/escape(_:)``, every path segment percent-encoded, every control labelled, tables that scroll sideways
/// on a narrow screen instead of widening the page.
enum ConsoleUserHTML {
    // MARK: Paths

    /// `text` as one path segment: everything but unreserved characters percent-encoded.
    static func segment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A query value: like ``segment(_:)``.
    static func queryValue(_ text: String) -> String { segment(text) }

    /// The user page of `userID`.
    static func userPath(_ userID: String) -> String { PageRoute.consoleUser.path([segment(userID)]) }

    /// The challenge page of `id`.
    static func challengePath(_ id: String) -> String { PageRoute.consoleChallenge.path([segment(id)]) }

    // MARK: Values

    /// A time in milliseconds as ISO 8601, or a dash.
    static func time(_ milliseconds: Int64?) -> String {
        milliseconds.map(AdminConsole.iso8601) ?? "—"
    }

    /// A challenge's state as a person reads it: an open challenge past its expiry is `expired`.
    static func state(of challenge: Challenge, now: Int64) -> String {
        (challenge.state == .pending || challenge.state == .claimed) && now >= challenge.expiresAt
            ? "expired" : challenge.state.rawValue
    }

    private static func escape(_ text: String) -> String { MarkupText.escape(text) }

    /// A cell; `label` names its column where a narrow screen shows rows as cards (`data-label`, see console.css).
    private static func cell(_ label: String, _ text: String) -> String {
        "<td data-label=\"\(escape(label))\">\(escape(text))</td>"
    }

    /// A cell holding a time (or a dash), kept on one line.
    private static func timeCell(_ label: String, _ milliseconds: Int64?) -> String {
        "<td class=\"time\" data-label=\"\(escape(label))\">\(escape(time(milliseconds)))</td>"
    }

    private static func page(
        current: ConsoleSessions.Current, csrf: String, title: String, body: String
    ) -> String {
        ConsoleHTML.signedInPage(title: title, current: current, csrf: csrf, section: .users, body: body)
    }

    private static func notice(_ text: String?) -> String {
        text.map { "<p class=\"done\" id=\"notice\" role=\"status\">\(escape($0))</p>" } ?? ""
    }

    /// A form posting `action` with the CSRF token and one button; `destructive` (remove, block, delete) styles the
    /// button as taking something away (`class="danger"`).
    private static func postButton(action: String, csrf: String, label: String, id: String, destructive: Bool) -> String {
        """
        <form method="post" action="\(escape(action))" class="inline-action">
        <input type="hidden" name="csrf" value="\(escape(csrf))">
        <button type="submit" id="\(escape(id))"\(destructive ? " class=\"danger\"" : "")>\(escape(label))</button>
        </form>
        """
    }

    // MARK: Pages

    /// The users page: the search form and one page of results.
    static func users(
        current: ConsoleSessions.Current, csrf: String, prefix: String, after: String?, found: [User], more: Bool,
        notice text: String?
    ) -> String {
        let rows = found.map { user in
            let name = [user.displayName, user.username, user.email].compactMap { $0 }.first ?? ""
            return "<tr><td data-label=\"User id\"><a href=\"\(escape(userPath(user.userID)))\">\(escape(user.userID))</a></td>"
                + cell("Name", name) + timeCell("Created", user.createdAt) + "</tr>"
        }.joined(separator: "\n")
        let results = found.isEmpty
            ? "<p id=\"no-users\">No user id starts with “\(escape(prefix))”\(after == nil ? "" : " after this point").</p>"
            : """
            <div class="table-wrap">
            <table id="users" class="cards">
            <caption>Users whose id starts with “\(escape(prefix))”\(after.map { ", after “\(escape($0))”" } ?? "")</caption>
            <thead><tr><th scope="col">User id</th><th scope="col">Name</th><th scope="col">Created</th></tr></thead>
            <tbody>
            \(rows)
            </tbody>
            </table>
            </div>
            """
        let next = more && !found.isEmpty
            ? "<p><a id=\"more\" href=\"\(PageRoute.consoleUsers.path)?q=\(queryValue(prefix))&amp;after=\(queryValue(found[found.count - 1].userID))\">More users</a></p>"
            : ""
        return page(current: current, csrf: csrf, title: "Users", body: """
            <main>
            <h1>Users</h1>
            \(notice(text))
            <form method="get" action="\(PageRoute.consoleUsers.path)" id="search" role="search">
            <label for="q">User id starts with</label>
            <input type="search" id="q" name="q" value="\(escape(prefix))" maxlength="255" autocomplete="off">
            <button type="submit" id="search-button">Search</button>
            </form>
            \(results)
            \(next)
            </main>
            """)
    }

    /// A user's page.
    static func user(
        current: ConsoleSessions.Current, csrf: String, user: User, authenticators: [Authenticator],
        activations: [ActivationRecord], recent: [Challenge], signIns: [SignIn], now: Int64, notice text: String?
    ) -> String {
        let base = userPath(user.userID)
        let authenticatorRows = authenticators.map { a in
            let expiry = a.expiresAt.map { a.isExpired(at: now) ? "expired \(time($0))" : time($0) } ?? "—"
            let push: String = if a.pushToken == nil {
                "—"
            } else if let errored = a.erroredAt {
                "Stale since \(time(errored))" + (a.errorCode.map { " (\($0))" } ?? "")
            } else {
                "Valid"
            }
            let attestation = ConsoleWords.attestation(a.attestation)
                + (a.attestation.map { "; checked \(time($0.verifiedAt))" } ?? "")
            let attestationData = a.attestation.map {
                " data-attestation-format=\"\(escape($0.format))\" data-attestation-verified=\"\($0.verified)\""
            } ?? ""
            return "<tr id=\"authenticator-\(escape(a.id))\" data-method=\"\(escape(a.verificationMethod.rawValue))\"\(attestationData)>"
                + cell("Kind", ConsoleWords.method(a.verificationMethod))
                + cell("Platform", ConsoleWords.device(platform: a.devicePlatform, name: a.deviceName)) + timeCell("Created", a.createdAt)
                + timeCell("Last used", a.lastVerifiedAt) + cell("Expires", expiry) + cell("Push token", push)
                + "<td class=\"attestation\" data-label=\"Attestation\">\(escape(attestation))</td>"
                + "<td class=\"actions\">"
                + postButton(
                    action: "\(base)/authenticators/\(segment(a.id))/remove", csrf: csrf, label: "Remove",
                    id: "remove-\(a.id)", destructive: true)
                + "</td></tr>"
        }.joined(separator: "\n")
        let maxFailed = current.tenant.settings.maxFailedAttempts
        let activationRows = activations.map { a in
            var buttons: [String] = []
            let path = "\(base)/activations/\(segment(a.id))"
            if a.status == .active {
                buttons.append(postButton(action: path + "/block", csrf: csrf, label: "Block", id: "block-\(a.id)", destructive: true))
            }
            if a.status == .blocked {
                buttons.append(postButton(action: path + "/unblock", csrf: csrf, label: "Unblock", id: "unblock-\(a.id)", destructive: false))
            }
            if a.status != .removed {
                buttons.append(postButton(action: path + "/remove", csrf: csrf, label: "Remove", id: "remove-\(a.id)", destructive: true))
            }
            return "<tr id=\"activation-\(escape(a.id))\" data-status=\"\(escape(a.status.rawValue))\">"
                + cell("Name", a.name ?? a.id)
                + "<td class=\"status\" data-label=\"Status\">\(escape(ConsoleWords.activationStatus(a.status)))</td>"
                + cell("Failed attempts", "\(a.failedAttempts) of \(maxFailed)")
                + cell("Blocked because", a.blockedReason.map(ConsoleWords.blockedReason) ?? "—") + timeCell("Created", a.createdAt)
                + timeCell("Last used", a.lastUsedAt) + "<td class=\"actions\">\(buttons.joined())</td></tr>"
        }.joined(separator: "\n")
        let recentRows = recent.map { challengeRow($0, now: now) }.joined(separator: "\n")
        let facts = [
            ("Display name", user.displayName), ("User name", user.username), ("E-mail", user.email),
            ("Phone", user.phoneNumber),
        ].compactMap { label, value in value.map { "<dt>\(label)</dt><dd>\(escape($0))</dd>" } }.joined()
        return page(current: current, csrf: csrf, title: "User \(user.userID)", body: """
            <main id="user-page" data-api="\(escape(PageRoute.consoleUserData.path([segment(user.userID)])))">
            <p><a href="\(PageRoute.consoleUsers.path)">← Users</a></p>
            <h1>User <span id="user-id">\(escape(user.userID))</span></h1>
            \(notice(text))
            <dl class="facts">
            <dt>Created</dt><dd>\(escape(time(user.createdAt)))</dd>\(facts)
            </dl>
            <h2>Authenticators</h2>
            \(authenticators.isEmpty ? "<p id=\"no-authenticators\">None.</p>" : """
            <div class="table-wrap">
            <table id="authenticators" class="cards">
            <thead><tr><th scope="col">Kind</th><th scope="col">Platform</th><th scope="col">Created</th>
            <th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Push token</th>
            <th scope="col">Attestation</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
            \(authenticatorRows)
            </tbody>
            </table>
            </div>
            """)
            <h2>PowerAuth activations</h2>
            \(activations.isEmpty ? "<p id=\"no-activations\">None.</p>" : """
            <div class="table-wrap">
            <table id="activations" class="cards">
            <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Failed attempts</th>
            <th scope="col">Blocked because</th><th scope="col">Created</th><th scope="col">Last used</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
            \(activationRows)
            </tbody>
            </table>
            </div>
            """)
            <h2>Recent challenges</h2>
            <p class="hint">Newest first; refreshed every second. <span id="refreshed" aria-live="polite"></span></p>
            <div class="table-wrap">
            <table id="recent" class="cards">
            <thead><tr><th scope="col">Started</th><th scope="col">Kind</th><th scope="col">Action</th>
            <th scope="col">State</th><th scope="col">Answered</th></tr></thead>
            <tbody id="recent-rows">
            \(recentRows)
            </tbody>
            </table>
            </div>
            <h2>Export this user's data</h2>
            <p class="hint">Downloads everything Assent holds about the user as JSON (recorded in the audit log).</p>
            \(postButton(action: base + "/export", csrf: csrf, label: "Export data", id: "export-user", destructive: false))
            <h2>Sign-in history</h2>
            <p class="hint">The latest \(ConsoleUsers.signInLimit) outcomes, newest first;
            <a href="\(PageRoute.consoleSignIns.path)?user=\(queryValue(user.userID))" id="all-sign-ins">all of this user's sign-ins</a>.</p>
            \(ConsoleSignInsPage.table(signIns, id: "user-sign-ins"))
            <h2>Delete this user</h2>
            <p class="hint">Deletes the user's record, authenticators, activations, actions and challenges; the audit
            log keeps the entries naming them (asks to confirm first).</p>
            \(postButton(action: base + "/delete", csrf: csrf, label: "Delete user", id: "delete-user", destructive: true))
            </main>
            <script src="/web/console-user.js"></script>
            """)
    }

    private static func challengeRow(_ challenge: Challenge, now: Int64) -> String {
        let state = state(of: challenge, now: now)
        return "<tr data-kind=\"\(escape(challenge.kind.rawValue))\" data-state=\"\(escape(state))\">"
            + "<td class=\"time\" data-label=\"Started\"><a href=\"\(escape(challengePath(challenge.id)))\">"
            + "\(escape(time(challenge.createdAt)))</a></td>"
            + cell("Kind", ConsoleWords.challengeKind(challenge.kind)) + cell("Action", challenge.actionCode ?? "")
            + cell("State", ConsoleWords.challengeState(state)) + timeCell("Answered", challenge.answeredAt) + "</tr>"
    }

    /// The confirmation step of a change: the question, a button posting the same form with `confirm=yes` (styled as
    /// taking something away when `destructive`), and a way back that changes nothing.
    static func confirm(
        current: ConsoleSessions.Current, csrf: String, question: String, action: String, button: String, cancel: String,
        destructive: Bool
    ) -> HTTPResponse {
        AdminConsole.html(page(current: current, csrf: csrf, title: "Confirm", body: """
            <main class="narrow">
            <h1>Confirm</h1>
            <p id="question">\(escape(question))</p>
            <form method="post" action="\(escape(action))" id="confirm-form">
            <input type="hidden" name="csrf" value="\(escape(csrf))">
            <input type="hidden" name="confirm" value="yes">
            <button type="submit" id="confirm"\(destructive ? " class=\"danger\"" : "")>\(escape(button))</button>
            </form>
            <p><a href="\(escape(cancel))" id="cancel">Cancel</a></p>
            </main>
            """))
    }

    /// A page saying there is no such `what` in the signed-in tenant.
    static func notFound(current: ConsoleSessions.Current, csrf: String, what: String, id: String) -> String {
        page(current: current, csrf: csrf, title: "Not found", body: """
            <main>
            <h1>Not found</h1>
            <p id="not-found">This tenant has no \(escape(what)) “\(escape(id))”.</p>
            <p><a href="\(PageRoute.consoleUsers.path)">Users</a></p>
            </main>
            """)
    }

    /// A challenge's page: its facts, then its timeline — the start, every delivery and webhook event, the answer.
    static func challenge(
        current: ConsoleSessions.Current, csrf: String, challenge c: Challenge, timeline: [ChallengeTimelineEntry],
        deliveries: [PushDelivery], now: Int64
    ) -> String {
        // The same timeline as `GET /v1/challenges/{id}/timeline` and `assent admin challenge timeline`.
        let ordered = ChallengeTimeline.entries(challenge: c, recorded: timeline, now: now)
        let timelineRows = ordered.map { (entry: ChallengeTimelineEntry) -> String in
            let parts: [String?] = [
                entry.provider, entry.attempt.map { "attempt \($0)" }, entry.status.map { "HTTP \($0)" }, entry.detail,
            ]
            let detail = parts.compactMap { $0 }.joined(separator: " · ")
            let who = entry.authenticatorID ?? "—"
            return "<tr>" + timeCell("When", entry.at) + cell("Event", entry.event) + cell("Authenticator", who)
                + cell("Detail", detail) + "</tr>"
        }.joined(separator: "\n")
        let deliveryRows = deliveries.map {
            "<tr data-provider=\"\(escape($0.provider.rawValue))\" data-state=\"\(escape($0.state.rawValue))\">"
                + cell("Authenticator", $0.authenticatorID) + cell("Provider", ConsoleWords.provider($0.provider))
                + cell("State", ConsoleWords.deliveryState($0.state)) + cell("Attempts", String($0.attempts)) + cell("Last error", $0.lastError ?? "—")
                + "</tr>"
        }.joined(separator: "\n")
        let userLink = c.userID.map { "<a href=\"\(escape(userPath($0)))\" id=\"challenge-user\">\(escape($0))</a>" } ?? "—"
        let optional = [
            ("Action", c.actionCode), ("Idempotency key", c.idempotencyKey), ("Answered by", c.answeredBy),
            ("IP address", c.ipAddress), ("User agent", c.userAgent), ("Device id", c.deviceID),
        ].compactMap { label, value in value.map { "<dt>\(label)</dt><dd>\(escape($0))</dd>" } }.joined(separator: "\n")
        return page(current: current, csrf: csrf, title: "Challenge", body: """
            <main>
            <p><a href="\(PageRoute.consoleUsers.path)">← Users</a></p>
            <h1>Challenge</h1>
            <dl class="facts">
            <dt>Id</dt><dd><code id="challenge-id">\(escape(c.id))</code></dd>
            <dt>Kind</dt><dd id="challenge-kind" data-kind="\(escape(c.kind.rawValue))">\(escape(ConsoleWords.challengeKind(c.kind)))</dd>
            <dt>State</dt><dd id="challenge-state" data-state="\(escape(state(of: c, now: now)))">\(escape(ConsoleWords.challengeState(state(of: c, now: now))))</dd>
            <dt>User</dt><dd>\(userLink)</dd>
            <dt>Started</dt><dd>\(escape(time(c.createdAt)))</dd>
            <dt>Expires</dt><dd>\(escape(time(c.expiresAt)))</dd>
            <dt>Answered</dt><dd>\(escape(time(c.answeredAt)))</dd>
            \(optional)
            </dl>
            <h2>Timeline</h2>
            <div class="table-wrap">
            <table id="timeline" class="cards">
            <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Authenticator</th>
            <th scope="col">Detail</th></tr></thead>
            <tbody>
            \(timelineRows)
            </tbody>
            </table>
            </div>
            <h2>Push deliveries</h2>
            \(deliveries.isEmpty ? "<p id=\"no-deliveries\">None queued.</p>" : """
            <div class="table-wrap">
            <table id="deliveries" class="cards">
            <thead><tr><th scope="col">Authenticator</th><th scope="col">Provider</th><th scope="col">State</th>
            <th scope="col">Attempts</th><th scope="col">Last error</th></tr></thead>
            <tbody>
            \(deliveryRows)
            </tbody>
            </table>
            </div>
            """)
            </main>
            """)
    }
}
