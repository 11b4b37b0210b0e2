import Foundation

/// What an Assent QR code says: `assent://qr?tenant=<tenantID>&challenge=<challengeId>`. The device claims the challenge
/// with the tenant it is enrolled with; a payload naming another tenant is refused before anything is sent. A bare
/// challenge id (64 hex characters) is understood too, for pages that render the id alone as Authsignal's do.
package struct QRPayload: Sendable, Hashable {
    /// The tenant that issued the challenge, when the payload names it.
    package var tenantID: String?
    /// The challenge to claim.
    package var challengeID: String

    /// Creates a payload.
    package init(tenantID: String?, challengeID: String) {
        self.tenantID = tenantID
        self.challengeID = challengeID
    }

    /// The text to put in the QR code.
    package var text: String {
        var components = URLComponents()
        components.scheme = "assent"
        components.host = "qr"
        components.queryItems = (tenantID.map { [URLQueryItem(name: "tenant", value: $0)] } ?? [])
            + [URLQueryItem(name: "challenge", value: challengeID)]
        return components.string ?? "assent://qr?challenge=\(challengeID)"
    }

    /// Reads a payload; nil when the text is neither an Assent QR URI nor a bare challenge id.
    package init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if Self.isChallengeID(trimmed) {
            self.init(tenantID: nil, challengeID: trimmed)
            return
        }
        guard let components = URLComponents(string: trimmed), components.scheme == "assent", components.host == "qr",
              let challenge = components.queryItems?.first(where: { $0.name == "challenge" })?.value,
              Self.isChallengeID(challenge)
        else { return nil }
        let tenant = components.queryItems?.first(where: { $0.name == "tenant" })?.value
        self.init(tenantID: tenant.flatMap { $0.isEmpty ? nil : $0 }, challengeID: challenge)
    }

    private static func isChallengeID(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
