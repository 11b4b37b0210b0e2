/// The exact messages devices sign (ECDSA P-256 / SHA-256, DER), shared by server and SDK so they cannot drift.
public enum SignedMessage {
    /// Length of one time window, seconds.
    public static let windowSeconds: Int64 = 600

    /// The time-window message used to remove a credential: `floor(unixSeconds / 600)` rendered as the mobile SDKs
    /// render a Double, e.g. `"2993364.0"`.
    public static func timeWindow(unixSeconds: Int64) -> String {
        "\(window(unixSeconds: unixSeconds)).0"
    }

    /// The window number of a moment.
    public static func window(unixSeconds: Int64) -> Int64 {
        unixSeconds >= 0 ? unixSeconds / windowSeconds : (unixSeconds - windowSeconds + 1) / windowSeconds
    }

    /// The compatible approval message: the challenge id itself.
    public static func challenge(_ challengeId: String) -> String { challengeId }

    /// Assent's bound decision message: the challenge id, the decision, the verification code and a fraud report,
    /// so none of them can be changed in transit. Lines separated by `\n`: `assent-decision-v1`, challengeId,
    /// `approve` or `deny`, the code (empty when none), and only when `reportFraud` a last line `report-fraud` (so a
    /// message without a report is what it always was).
    public static func decision(
        challengeId: String, approved: Bool, verificationCode: String?, reportFraud: Bool = false
    ) -> String {
        (["assent-decision-v1", challengeId, approved ? "approve" : "deny", verificationCode ?? ""]
            + (reportFraud ? ["report-fraud"] : [])).joined(separator: "\n")
    }
}
