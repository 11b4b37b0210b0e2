public import Foundation

/// The push token an app registers with ``AssentPush/addCredential(token:userPresenceRequired:userAuthenticationRequired:timeout:authorizationType:pushToken:)``
/// and ``AssentPush/updateCredential(pushToken:resetExpiry:)``.
public enum PushToken {
    /// The APNs device token that `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` delivers, as the
    /// lowercase hex string APNs addresses it by (what the push documents' `"<APNs or FCM token>"` stands for on iOS).
    ///
    /// ```swift
    /// func application(_ app: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
    ///     Task { await assent.push.updateCredential(pushToken: PushToken.apns(token)) }
    /// }
    /// ```
    public static func apns(_ deviceToken: Data) -> String {
        hex(Array(deviceToken))
    }

    /// `bytes` as lowercase hex, two digits a byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
