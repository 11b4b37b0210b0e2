/// What the look-ahead search (``PowerAuthSignature/match(_:type:keys:counterData:data:format:lookAhead:)``) found for
/// a signature: at which counter value it was made, and whether every component verified or only the possession one.
///
/// The components of a multi-factor signature are separable (the first 16 bytes of the Base64 form, the first group
/// of the decimal form are the possession component), so a server can tell a signature the device made with a wrong
/// PIN or biometry key (possession verifies, the rest does not) from one a stranger made up (nothing verifies).
public struct PowerAuthSignatureMatch: Sendable, Hashable {
    /// How much of the signature verified.
    public enum Extent: Sendable, Hashable {
        /// Every component: the signature is valid.
        case allFactors
        /// Only the possession component (the signature has others, and at least one of them did not verify): the
        /// device itself signed this very request, with a wrong knowledge or biometry key.
        case possessionOnly
    }

    /// How much verified.
    public var extent: Extent
    /// How far ahead of the given counter value the signature was made (0 ..< look-ahead).
    public var distance: Int
    /// The counter value after the one the signature used: the server's new `CTR_DATA` either way.
    public var nextCounterData: [UInt8]

    /// A match.
    public init(extent: Extent, distance: Int, nextCounterData: [UInt8]) {
        self.extent = extent
        self.distance = distance
        self.nextCounterData = nextCounterData
    }

    /// Whether every component verified.
    public var isValid: Bool { extent == .allFactors }
}
