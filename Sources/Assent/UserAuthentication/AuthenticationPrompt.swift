/// What the system prompt shows the user (biometry-setup.md's `promptTitle` and `promptMessage`).
public struct AuthenticationPrompt: Sendable, Hashable, Codable {
    /// The prompt's title.
    public var title: String
    /// Why the app asks.
    public var message: String

    /// Creates a prompt.
    public init(title: String, message: String) {
        self.title = title
        self.message = message
    }

    /// The prompt used when a caller gives none: approving with the device's Assent credential.
    public static let `default` = AuthenticationPrompt(title: "Confirm it's you", message: "Authenticate to use your Assent credential")
}
