/// The plaintext of the 32-byte activation status blob (PowerAuth `Activation-Status.md`):
///
/// `[0..3] DE C0 DE D1 | [4] status | [5] current version | [6] upgrade version | [7..11] reserved |
/// [12] CTR_BYTE | [13] failed attempts | [14] max failed attempts | [15] look-ahead | [16..31] CTR_DATA hash`.
public struct PowerAuthActivationStatus: Sendable, Hashable {
    /// The blob's magic header.
    public static let magic: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1]

    /// Activation state code: 1 CREATED, 2 PENDING_COMMIT, 3 ACTIVE, 4 BLOCKED, 5 REMOVED.
    public var status: UInt8
    /// The protocol generation the activation uses (3 for V3).
    public var currentVersion: UInt8
    /// The generation the server could upgrade it to (3).
    public var upgradeVersion: UInt8
    /// The low byte of the server's numeric counter (`CTR_BYTE`).
    public var counterByte: UInt8
    /// Failed attempts so far.
    public var failedAttempts: UInt8
    /// Failed attempts at which the activation is blocked.
    public var maxFailedAttempts: UInt8
    /// The server's look-ahead window.
    public var lookAhead: UInt8
    /// `KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), CTR_DATA)` of the server's counter value (16 bytes).
    public var counterDataHash: [UInt8]

    /// A status with every field given.
    public init(
        status: UInt8, currentVersion: UInt8 = 3, upgradeVersion: UInt8 = 3, counterByte: UInt8, failedAttempts: UInt8,
        maxFailedAttempts: UInt8, lookAhead: UInt8, counterDataHash: [UInt8]
    ) {
        self.status = status
        self.currentVersion = currentVersion
        self.upgradeVersion = upgradeVersion
        self.counterByte = counterByte
        self.failedAttempts = failedAttempts
        self.maxFailedAttempts = maxFailedAttempts
        self.lookAhead = lookAhead
        self.counterDataHash = counterDataHash
    }

    /// Parses the 32 plaintext bytes. Like the mobile SDK it accepts a last magic byte of `D1`...`DF` and a
    /// look-ahead of 1...64.
    ///
    /// - Throws: `CryptoError.invalidInput` for a wrong size, magic or look-ahead (a wrong key decrypts to this).
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 32 else { throw CryptoError(.invalidInput, "status blob must be 32 bytes, got \(bytes.count)") }
        guard bytes[0] == 0xDE, bytes[1] == 0xC0, bytes[2] == 0xDE, (0xD1...0xDF).contains(bytes[3]) else {
            throw CryptoError(.invalidInput, "status blob has a wrong header (wrong transport key?)")
        }
        guard (1...64).contains(bytes[15]) else {
            throw CryptoError(.invalidInput, "status blob look-ahead \(bytes[15]) outside 1...64")
        }
        status = bytes[4]
        currentVersion = bytes[5]
        upgradeVersion = bytes[6]
        counterByte = bytes[12]
        failedAttempts = bytes[13]
        maxFailedAttempts = bytes[14]
        lookAhead = bytes[15]
        counterDataHash = Array(bytes[16..<32])
    }

    /// The 32 plaintext bytes.
    public var bytes: [UInt8] {
        var out = PowerAuthActivationStatus.magic
        out += [status, currentVersion, upgradeVersion, 0, 0, 0, 0, 0, counterByte, failedAttempts, maxFailedAttempts, lookAhead]
        out += counterDataHash
        return out
    }
}
