/// The exact messages devices sign (ECDSA P-256 / SHA-256, DER), shared by server and SDK so they cannot drift.
package enum SignedMessage {
    /// Length of one time window, seconds.
    package static let windowSeconds: Int64 = 600

    /// The time-window message used to remove a credential: `floor(unixSeconds / 600)` rendered as the mobile SDKs
    /// render a Double, e.g. `"2993364.0"`.
    package static func timeWindow(unixSeconds: Int64) -> String {
        "\(window(unixSeconds: unixSeconds)).0"
    }

    /// The window number of a moment.
    package static func window(unixSeconds: Int64) -> Int64 {
        unixSeconds >= 0 ? unixSeconds / windowSeconds : (unixSeconds - windowSeconds + 1) / windowSeconds
    }

    /// The compatible approval message: the challenge id itself.
    package static func challenge(_ challengeId: String) -> String { challengeId }

    /// Assent's bound message for `purpose` by credential `credentialId`: lines separated by `\n` — `assent-bound-v1`,
    /// the purpose, the credential id, then the purpose's own fields. A bound credential signs nothing else, so a
    /// signature made for one purpose (or one credential) never verifies for another.
    static func bound(_ purpose: String, credentialId: String, _ fields: [String]) -> String {
        (["assent-bound-v1", purpose, credentialId] + fields).joined(separator: "\n")
    }

    /// The bound claim of a QR challenge: purpose `claim`, then the challenge id.
    package static func claim(credentialId: String, challengeId: String) -> String {
        bound("claim", credentialId: credentialId, [challengeId])
    }

    /// The bound answer to a challenge: purpose `approve` or `deny`, then the challenge id and the verification code
    /// (empty when none), and only when `reportFraud` a last field `report-fraud` ("this wasn't me"), so neither the
    /// decision, the code nor the report can be changed in transit.
    package static func decision(
        credentialId: String, challengeId: String, approved: Bool, verificationCode: String?, reportFraud: Bool = false
    ) -> String {
        bound(
            approved ? "approve" : "deny", credentialId: credentialId,
            [challengeId, verificationCode ?? ""] + (reportFraud ? ["report-fraud"] : []))
    }

    /// The bound removal of a credential: purpose `remove`, then the credential's kind (`PUSH` or `DEVICE`, the
    /// verification method) and the time window (``timeWindow(unixSeconds:)``), so it removes this credential only,
    /// for the window's 10 minutes and the next.
    package static func removal(credentialId: String, kind: VerificationMethod, unixSeconds: Int64) -> String {
        bound("remove", credentialId: credentialId, [kind.rawValue, timeWindow(unixSeconds: unixSeconds)])
    }

    /// The bound update of a push credential: purpose `update`, then the server's single-use nonce message.
    package static func update(credentialId: String, nonce: String) -> String {
        bound("update", credentialId: credentialId, [nonce])
    }
}
