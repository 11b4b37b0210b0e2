/// How the signature components are written out.
public enum PowerAuthSignatureFormat: Sendable, Hashable {
    /// Versions 3.1 and later: Base64 of the last 16 bytes of each component, concatenated (24, 44 or 64 characters).
    case base64
    /// Version 3.0 and offline signatures: each component's last 4 bytes as a 31-bit number, modulo
    /// `10^componentLength`, zero-padded, joined with `-`. `componentLength` must be 4...8 (8 online).
    case decimal(componentLength: Int)

    /// The decimal format with 8-digit components (online signatures of version 3.0).
    public static let decimal8 = PowerAuthSignatureFormat.decimal(componentLength: 8)

    /// The allowed decimal component lengths.
    public static let componentLengths = 4...8

    /// The format a `pa_version` implies: `3.0` is decimal, every later version base64. Nil for an unknown version.
    public static func forVersion(_ version: String) -> PowerAuthSignatureFormat? {
        guard PowerAuth.supportedVersions.contains(version) else { return nil }
        return version == "3.0" ? .decimal8 : .base64
    }
}
