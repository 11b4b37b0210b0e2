import AssentWire
import Foundation

/// `assent admin challenge timeline`: a challenge's timeline — its start, its notifications and every recorded attempt,
/// its answer or expiry — the one the console shows (server API).
enum ChallengeCommands {
    static let group = Command.group("challenge", "inspect challenges (server API)", [timeline])

    static let timeline = Command.leaf(
        "timeline", "show a challenge's timeline: its start, push deliveries and every recorded event, its answer",
        details: "GET /v1/challenges/{challengeId}/timeline, the timeline the console's challenge page shows, for push and QR "
            + "challenges under every push provider. Kept for a day after the challenge.",
        options: ServerConnection.options + [.required("--challenge", "ID", "the challenge id")]
    ) { invocation in
        let id = try invocation.options.required("--challenge")
        guard !id.isEmpty, id.utf8.count <= 200 else { throw CLIError.usage("--challenge must be 1 to 200 characters") }
        try await ServerConnection.call(
            invocation, .getChallengeTimeline, [id], decoding: ChallengeTimelineResponse.self
        ) { response in
            var rows = [["AT", "EVENT", "AUTHENTICATOR", "PROVIDER", "ATTEMPT", "STATUS", "DETAIL"]]
            for e in response.timeline {
                rows.append([
                    e.at, e.event, e.userAuthenticatorId ?? "", e.provider ?? "", e.attempt.map(String.init) ?? "",
                    e.status.map(String.init) ?? "", e.detail ?? "",
                ])
            }
            let deliveries = response.deliveries.map {
                "\($0.userAuthenticatorId) via \($0.provider): \($0.state) after \($0.attempts) attempt(s)"
                    + ($0.lastError.map { " (\($0))" } ?? "")
            }
            return (deliveries.isEmpty ? "" : deliveries.joined(separator: "\n") + "\n\n") + Table.render(rows)
        }
    }
}
