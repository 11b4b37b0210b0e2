import AssentWire
import Testing

/// The exact messages devices sign: Authsignal's (compatible credentials) and Assent's bound ones, which name their
/// purpose and the credential so that no signature serves two purposes.
@Suite struct SignedMessageTests {
    private static let credential = "5b0f9a0e-3c1d-4f7e-9b2a-6d8e1f2a3b4c"
    private static let challenge = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    /// 1_796_018_555 / 600 = 2993364.25.
    private static let now: Int64 = 1_796_018_555

    @Test func `Authsignal's messages are the challenge id and the time window`() {
        #expect(SignedMessage.challenge(Self.challenge) == Self.challenge)
        #expect(SignedMessage.timeWindow(unixSeconds: Self.now) == "2993364.0")
        #expect(SignedMessage.timeWindow(unixSeconds: -1) == "-1.0")
    }

    @Test func `each bound message names its purpose and the credential, one line each`() {
        let c = Self.credential, id = Self.challenge
        #expect(SignedMessage.claim(credentialId: c, challengeId: id) == "assent-bound-v1\nclaim\n\(c)\n\(id)")
        #expect(SignedMessage.decision(credentialId: c, challengeId: id, approved: true, verificationCode: "042")
            == "assent-bound-v1\napprove\n\(c)\n\(id)\n042")
        #expect(SignedMessage.decision(credentialId: c, challengeId: id, approved: false, verificationCode: nil)
            == "assent-bound-v1\ndeny\n\(c)\n\(id)\n")
        #expect(SignedMessage.removal(credentialId: c, kind: .push, unixSeconds: Self.now)
            == "assent-bound-v1\nremove\n\(c)\nPUSH\n2993364.0")
        #expect(SignedMessage.removal(credentialId: c, kind: .device, unixSeconds: Self.now)
            == "assent-bound-v1\nremove\n\(c)\nDEVICE\n2993364.0")
        #expect(SignedMessage.update(credentialId: c, nonce: "n-1") == "assent-bound-v1\nupdate\n\(c)\nn-1")
    }

    @Test func `no two purposes, credentials or kinds share a message, and none is an Authsignal message`() {
        let c = Self.credential, id = Self.challenge
        let messages = [
            SignedMessage.claim(credentialId: c, challengeId: id),
            SignedMessage.claim(credentialId: "other", challengeId: id),
            SignedMessage.decision(credentialId: c, challengeId: id, approved: true, verificationCode: nil),
            SignedMessage.decision(credentialId: c, challengeId: id, approved: false, verificationCode: nil),
            SignedMessage.decision(credentialId: "other", challengeId: id, approved: true, verificationCode: nil),
            SignedMessage.decision(credentialId: c, challengeId: id, approved: true, verificationCode: "1"),
            SignedMessage.removal(credentialId: c, kind: .push, unixSeconds: Self.now),
            SignedMessage.removal(credentialId: c, kind: .device, unixSeconds: Self.now),
            SignedMessage.removal(credentialId: "other", kind: .push, unixSeconds: Self.now),
            SignedMessage.removal(credentialId: c, kind: .push, unixSeconds: Self.now + 600),
            SignedMessage.update(credentialId: c, nonce: id),
        ]
        #expect(Set(messages).count == messages.count)
        let authsignal: Set = [SignedMessage.challenge(id), SignedMessage.timeWindow(unixSeconds: Self.now), id]
        #expect(messages.allSatisfy { !authsignal.contains($0) && $0.hasPrefix("assent-bound-v1\n") })
    }

    @Test func `the scheme is spelled bound or compatible on the wire`() {
        #expect(SignatureScheme.bound.rawValue == "bound" && SignatureScheme.compatible.rawValue == "compatible")
        #expect(SignatureScheme(rawValue: "none") == nil)
    }
}
