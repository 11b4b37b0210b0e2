import Testing
@testable import AssentServerCore

/// The one timeline the console, the server API and the CLI show (issue 22 §3.3).
@Suite struct ChallengeTimelineTests {
    private func challenge(state: Challenge.State = .pending, answeredAt: Int64? = nil) -> Challenge {
        var c = Challenge(id: "c1", tenantID: "t1", kind: .push, createdAt: 1_000, expiresAt: 5_000)
        c.targetAuthenticatorID = "ua_1"
        c.ipAddress = "203.0.113.9"
        c.state = state
        c.answeredAt = answeredAt
        c.answeredBy = answeredAt == nil ? nil : "ua_1"
        return c
    }

    @Test func `a challenge with nothing delivered still has its start and its answer`() {
        // The provider `none` records nothing: the API answered 404 for this while the console showed both events.
        let entries = ChallengeTimeline.entries(
            challenge: challenge(state: .approved, answeredAt: 2_000), recorded: [], now: 3_000)
        #expect(entries.map(\.event) == ["challenge.started", "challenge.approved"])
        #expect(entries[0].authenticatorID == "ua_1" && entries[0].detail == "from 203.0.113.9" && entries[0].at == 1_000)
        #expect(entries[1].authenticatorID == "ua_1" && entries[1].at == 2_000)
    }

    @Test func `recorded events sit between the start and the answer, in time order`() {
        let recorded = [
            ChallengeTimelineEntry(event: "push.queued", tenantID: "t1", challengeID: "c1", at: 1_000),
            ChallengeTimelineEntry(event: "push.delivered", tenantID: "t1", challengeID: "c1", at: 2_500, status: 200),
        ]
        let entries = ChallengeTimeline.entries(
            challenge: challenge(state: .denied, answeredAt: 2_500), recorded: recorded, now: 3_000)
        #expect(entries.map(\.event) == ["challenge.started", "push.queued", "push.delivered", "challenge.denied"])
    }

    @Test func `an unanswered challenge ends expired only once past its expiry`() {
        #expect(ChallengeTimeline.entries(challenge: challenge(), recorded: [], now: 4_999).map(\.event)
            == ["challenge.started"])
        let expired = ChallengeTimeline.entries(challenge: challenge(), recorded: [], now: 5_000)
        #expect(expired.map(\.event) == ["challenge.started", "challenge.expired"] && expired[1].at == 5_000)
    }

    @Test func `a swept challenge shows what was recorded`() {
        let recorded = [ChallengeTimelineEntry(event: "push.queued", tenantID: "t1", challengeID: "c1", at: 1_000)]
        #expect(ChallengeTimeline.entries(challenge: nil, recorded: recorded, now: 9_000) == recorded)
    }
}
