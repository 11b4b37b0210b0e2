/// `PATCH /v1/tenant/push`: the tenant's push provider and credentials. Only the fields present change; credentials
/// go in, never out.
public struct UpdatePushSettingsRequest: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
    /// `webhook`, `apns`, `fcm`, ... (the server lists the allowed names when refusing another).
    public var provider: String?
    /// The `push.created` webhook URL; null goes back to the tenant's webhook URL.
    public var webhookUrl: String??
    /// Whether a failed `push.created` only gets recorded.
    public var webhookBestEffort: Bool?
    /// The APNs `.p8` key (PEM).
    public var apnsPrivateKey: String?
    /// The APNs key id.
    public var apnsKeyId: String?
    /// The APNs team id.
    public var apnsTeamId: String?
    /// The app's bundle id.
    public var apnsTopic: String?
    /// `sandbox` or `production`.
    public var apnsEnvironment: String?
    /// Forget the APNs credentials.
    public var removeApns: Bool?
    /// Forget the FCM credentials.
    public var removeFcm: Bool?
    /// The FCM service-account JSON file, as its text (`.string`) or as an object (`.object`).
    public var fcmServiceAccount: JSONValue?

    /// A request that changes nothing.
    public init() {}

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "Only the fields present change. Credentials go in, never out.", blank: { Self() }, [
            .string("provider", \.provider, maxLength: 32, "webhook, apns, fcm, ... (a refusal lists the allowed names)."),
            .nullableString("webhookUrl", \.webhookUrl, maxLength: 2048,
                            "The push.created webhook URL; null goes back to the tenant's webhook URL."),
            .bool("webhookBestEffort", \.webhookBestEffort, "Whether a failed push.created only gets recorded."),
            .string("apnsPrivateKey", \.apnsPrivateKey, maxLength: 8192, characters: .text, "The APNs .p8 key (PEM)."),
            .string("apnsKeyId", \.apnsKeyId, maxLength: 255, "The APNs key id."),
            .string("apnsTeamId", \.apnsTeamId, maxLength: 255, "The APNs team id."),
            .string("apnsTopic", \.apnsTopic, maxLength: 255, "The app's bundle id."),
            .string("apnsEnvironment", \.apnsEnvironment, maxLength: 32, "sandbox or production."),
            .bool("removeApns", \.removeApns, "Forget the APNs credentials."),
            .bool("removeFcm", \.removeFcm, "Forget the FCM credentials."),
            .stringOrObject("fcmServiceAccount", \.fcmServiceAccount, maxLength: 16 * 1024, characters: .text,
                            "The FCM service-account JSON file, as its text or as an object."),
        ])
}
