/// `PATCH /v1/tenant/push`: the tenant's push provider and credentials. Only the fields present change; credentials
/// go in, never out.
public struct UpdatePushSettingsRequest: Encodable, Sendable, Hashable, WireDecodable {
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

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        provider = try body.string("provider", maxLength: 32)
        webhookUrl = try body.nullableString("webhookUrl", maxLength: 2048)
        webhookBestEffort = try body.bool("webhookBestEffort")
        apnsPrivateKey = try body.string("apnsPrivateKey", maxLength: 8192, characters: .text)
        apnsKeyId = try body.string("apnsKeyId", maxLength: 255)
        apnsTeamId = try body.string("apnsTeamId", maxLength: 255)
        apnsTopic = try body.string("apnsTopic", maxLength: 255)
        apnsEnvironment = try body.string("apnsEnvironment", maxLength: 32)
        removeApns = try body.bool("removeApns")
        removeFcm = try body.bool("removeFcm")
        if (try? body.rawString("fcmServiceAccount")) != nil {
            fcmServiceAccount = try body.string("fcmServiceAccount", maxLength: 16 * 1024, characters: .text).map { .string($0) }
        } else if let object = try body.object("fcmServiceAccount") {
            fcmServiceAccount = .object(object)
        }
    }
}
