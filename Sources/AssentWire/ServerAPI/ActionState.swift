/// The state of a tracked action, as the server API reports it.
public enum ActionState: String, Codable, Sendable, CaseIterable {
    case allow = "ALLOW"
    case block = "BLOCK"
    case challengeRequired = "CHALLENGE_REQUIRED"
    case challengeFailed = "CHALLENGE_FAILED"
    case challengeSucceeded = "CHALLENGE_SUCCEEDED"
    case reviewRequired = "REVIEW_REQUIRED"
    case reviewFailed = "REVIEW_FAILED"
    case reviewSucceeded = "REVIEW_SUCCEEDED"
}

extension ActionState: WireEnumeration, WireNamed {
    package static var wireType: WireType { .named(Self.self) }

    package static var wireComponent: JSONValue {
        WireType.string(oneOf: wireSpellings).jsonSchema(description: "The state of a tracked action.")
    }
}
