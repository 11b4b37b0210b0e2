import Foundation

/// What the device tells the server about itself when it enrols (`deviceName`, `devicePlatform`).
public struct DeviceInfo: Sendable, Hashable {
    /// A name the user recognises; defaults to the host name.
    public var name: String
    /// The platform string the server stores and uses to route pushes: `ios` credentials get APNs, anything else
    /// FCM (when a managed provider is configured); it also picks the biometry defaults biometry-setup.md gives per
    /// platform (see ``PowerAuthConfiguration``). Defaults to the operating system this code runs on: `ios`,
    /// `android`, `macos`, `linux` or `unknown`. Set `ios` or `android` explicitly when an app built on this SDK
    /// registers a real APNs or FCM token.
    public var platform: String

    /// Creates the value.
    public init(name: String, platform: String) {
        self.name = name
        self.platform = platform
    }

    /// This machine: its host name and operating system.
    public static var current: DeviceInfo {
        DeviceInfo(name: hostName(), platform: defaultPlatform)
    }

    /// The platform string for the operating system this code was built for.
    public static var defaultPlatform: String {
        #if os(iOS)
        return "ios"
        #elseif os(Android)
        return "android"
        #elseif os(macOS)
        return "macos"
        #elseif os(Linux)
        return "linux"
        #else
        return "unknown"
        #endif
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "unknown" : name
    }
}
