import AssentHTTP
@testable import AssentServer
@testable import AssentServerCore
import AssentLog
import AssentTestSupport
import AssentWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The console's users section: its pages escape what users and devices supplied, every change form carries the
/// session's CSRF token, the confirmation step re-posts the same form with `confirm=yes`, path segments are
/// percent-encoded, and — against a real server — the JSON and pages need a session.
@Suite struct ConsoleUsersTests {
    static let now: Int64 = 1_800_000_000_000

    static func current() -> ConsoleSessions.Current {
        let tenant = Tenant(
            id: "t1", name: "Shop <&>", secretHash: [], secretVersion: 1, keyVersion: 1, settings: TenantSettings(),
            createdAt: now)
        let session = ConsoleSession(
            idHash: [], tenantID: "t1", principal: "secret-key", createdAt: now, lastSeenAt: now, idleExpiresAt: now + 1,
            expiresAt: now + 2)
        return ConsoleSessions.Current(session: session, tenant: tenant, sessionID: "s")
    }

    static func occurrences(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func `the user page escapes every supplied value and each change form carries the CSRF token`() {
        let hostile = "<script>alert(\"x\")</script>/'"
        var user = User(tenantID: "t1", userID: hostile, now: Self.now)
        user.displayName = "<b>Eve</b>"
        var authenticator = Authenticator(id: "a-1", tenantID: "t1", userID: hostile, verificationMethod: .push, createdAt: Self.now)
        authenticator.deviceName = "<img src=x onerror=alert(1)>"
        authenticator.pushToken = "token"
        authenticator.erroredAt = Self.now
        authenticator.errorCode = "Unregistered"
        let active = ActivationRecord(
            id: "act-1", tenantID: "t1", userID: hostile, name: "<i>phone</i>", status: .active, devicePublicKey: [],
            serverPublicKey: [], sealedMasterSecret: [], counterData: [], fingerprint: "", enrolmentKey: "k",
            createdAt: Self.now, updatedAt: Self.now)
        var blocked = active
        blocked.id = "act-2"
        blocked.status = .blocked
        blocked.blockedReason = .maxFailedAttempts
        var challenge = Challenge(id: "c1", tenantID: "t1", kind: .push, createdAt: Self.now, expiresAt: Self.now + 1)
        challenge.actionCode = "<pay>"
        var signIn = SignIn(challenge, userID: hostile, at: Self.now + 2, outcome: .refused, reason: "<why>", credentialID: "a-1")
        signIn.ipAddress = "<ip>"
        let page = ConsoleUserHTML.user(
            current: Self.current(), csrf: "csrf-token", user: user, authenticators: [authenticator],
            activations: [active, blocked], recent: [challenge], signIns: [signIn], now: Self.now + 5, notice: nil)
        for raw in ["<script>alert", "<b>Eve", "<img src", "<i>phone", "<pay>", "Shop <&>", "<why>", "<ip>"] {
            #expect(!page.contains(raw), "\(raw) reached the page unescaped")
        }
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;/&#39;"))
        #expect(page.contains("Stale since 2027-01-15T08:00:00Z (Unregistered)"))
        // Words on the page, wire names in the attributes.
        #expect(page.contains("<tr id=\"authenticator-a-1\" data-method=\"PUSH\"><td data-label=\"Kind\">Push</td>"))
        #expect(page.contains("data-status=\"BLOCKED\"") && page.contains(">Blocked</td>"))
        #expect(page.contains("Too many failed attempts") && !page.contains(">MAX_FAILED_ATTEMPTS<"))
        // Remove, block and delete are destructive; unblock is not.
        #expect(page.contains("id=\"block-act-1\" class=\"danger\"") && page.contains("id=\"delete-user\" class=\"danger\""))
        #expect(page.contains("<button type=\"submit\" id=\"unblock-act-2\">"))
        // Remove the authenticator; block, remove the active one; unblock, remove the blocked one; export; delete;
        // sign out.
        #expect(Self.occurrences("<form method=\"post\"", in: page) == 8)
        #expect(Self.occurrences("name=\"csrf\" value=\"csrf-token\"", in: page) == 8)
        #expect(page.contains("<button type=\"submit\" id=\"export-user\">"))
        let base = "/admin/users/%3Cscript%3Ealert%28%22x%22%29%3C%2Fscript%3E%2F%27"
        #expect(page.contains("action=\"\(base)/activations/act-1/block\""))
        #expect(page.contains("action=\"\(base)/export\""))
        #expect(page.contains("action=\"\(base)/activations/act-2/unblock\""))
        #expect(!page.contains("act-1/unblock") && !page.contains("act-2/block"))
        #expect(page.contains("<td data-label=\"State\">Expired</td>"), "an open challenge past its expiry")
        #expect(page.contains("data-state=\"expired\""))
        #expect(page.contains("<script src=\"/web/console-user.js\"></script>"))
    }

    @Test func `each credential's attestation verdict is shown in words, its format and outcome in attributes`() {
        let user = User(tenantID: "t1", userID: "u1", now: Self.now)
        var android = Authenticator(id: "a-1", tenantID: "t1", userID: "u1", verificationMethod: .push, createdAt: Self.now)
        android.attestation = CredentialAttestation(
            format: "android-key", verified: true, securityLevel: "strongbox", app: "dev.<x>.app", osVersion: 150_102,
            patchLevel: 202_507, bootState: "selfSigned", revocationChecked: true, verifiedAt: Self.now)
        var apple = Authenticator(id: "a-2", tenantID: "t1", userID: "u1", verificationMethod: .device, createdAt: Self.now)
        apple.attestation = CredentialAttestation(
            format: "apple-appattest", verified: true, app: "TEAM123456.dev.assent.example", environment: "production",
            verifiedAt: Self.now)
        let plain = Authenticator(id: "a-3", tenantID: "t1", userID: "u1", verificationMethod: .push, createdAt: Self.now)
        let page = ConsoleUserHTML.user(
            current: Self.current(), csrf: "c", user: user, authenticators: [android, apple, plain], activations: [],
            recent: [], signIns: [], now: Self.now, notice: nil)
        #expect(page.contains("<th scope=\"col\">Attestation</th>"))
        #expect(page.contains("<tr id=\"authenticator-a-1\" data-method=\"PUSH\" data-attestation-format=\"android-key\" data-attestation-verified=\"true\">"))
        #expect(page.contains("""
            <td class="attestation" data-label="Attestation">Android key attestation, verified: package dev.&lt;x&gt;.app, \
            key in StrongBox, Android 15.1.2 (patch 2025-07), self-signed boot image, revocation checked; \
            checked 2027-01-15T08:00:00Z</td>
            """))
        #expect(page.contains("""
            <td class="attestation" data-label="Attestation">Apple App Attest, verified: app TEAM123456.dev.assent.example, \
            production environment; checked 2027-01-15T08:00:00Z</td>
            """))
        #expect(page.contains("<tr id=\"authenticator-a-3\" data-method=\"PUSH\"><td"))
        #expect(page.contains("<td class=\"attestation\" data-label=\"Attestation\">None</td>"))
    }

    @Test func `the confirmation step posts the same form again with confirm=yes and the CSRF token`() {
        let response = ConsoleUserHTML.confirm(
            current: Self.current(), csrf: "csrf-token", question: "Remove <x>?", action: "/admin/users/a%2Fb/delete",
            button: "Delete", cancel: "/admin/users/a%2Fb", destructive: true)
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 200)
        #expect(response.headers["Content-Security-Policy"] != nil && response.headers["Cache-Control"] == "no-store")
        #expect(page.contains("<form method=\"post\" action=\"/admin/users/a%2Fb/delete\" id=\"confirm-form\">"))
        #expect(page.contains("<input type=\"hidden\" name=\"confirm\" value=\"yes\">"))
        #expect(page.contains("<button type=\"submit\" id=\"confirm\" class=\"danger\">Delete</button>"))
        #expect(Self.occurrences("name=\"csrf\" value=\"csrf-token\"", in: page) == 2)
        #expect(page.contains("Remove &lt;x&gt;?") && page.contains("href=\"/admin/users/a%2Fb\" id=\"cancel\""))
    }

    @Test func `a full page of users links to the next page after its last id, with the prefix kept`() {
        let found = ["a/1", "a&2"].map { User(tenantID: "t1", userID: $0, now: Self.now) }
        let page = ConsoleUserHTML.users(
            current: Self.current(), csrf: "c", prefix: "a ", after: nil, found: found, more: true, notice: nil)
        #expect(page.contains("href=\"/admin/users?q=a%20&amp;after=a%262\">More users</a>"))
        #expect(page.contains("href=\"/admin/users/a%2F1\">a/1</a>") && page.contains(">a&amp;2</a>"))
        let last = ConsoleUserHTML.users(
            current: Self.current(), csrf: "c", prefix: "a", after: "a&2", found: [], more: false, notice: nil)
        #expect(!last.contains("More users") && last.contains("id=\"no-users\""))
    }

    @Test func `path segments encode everything but unreserved characters`() {
        #expect(ConsoleUserHTML.userPath("a/b c?d#é") == "/admin/users/a%2Fb%20c%3Fd%23%C3%A9")
        #expect(ConsoleUserHTML.challengePath("0aF-._~") == "/admin/challenges/0aF-._~")
    }

    @Test func `without a session the user data is a 401 envelope and the pages lead to the sign-in page`() async throws {
        let server = try await LiveServer()
        let data = try await server.request("GET", "/admin/api/users/someone")
        #expect(data.status == 401)
        #expect(data.json["errorCode"] as? String == "unauthorized")
        #expect(data.json["error"] != nil && data.json["errorDescription"] != nil)
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        for path in ["/admin/users?q=a", "/admin/users/someone", "/admin/challenges/c1"] {
            let (_, response) = try await session.data(for: URLRequest(url: URL(string: server.baseURL + path)!))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 303 && http.value(forHTTPHeaderField: "Location") == "/admin/", "\(path) leads to sign in")
        }
        await server.stop()
    }
}

/// Answers redirects as they are instead of following them.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
