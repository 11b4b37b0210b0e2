import AssentCrypto
import AssentWire

/// A request for a device to approve an action: a push challenge (started by the initiating page for a known
/// user) or a QR challenge (shown by a page and claimed by whichever device scans it).
public struct Challenge: Sendable, Hashable {
    /// What kind of challenge.
    public enum Kind: String, Sendable {
        /// Pulled by (or pushed to) the user's push credentials.
        case push
        /// Claimed by scanning a QR code.
        case qrCode = "qr"
    }

    /// Where it stands. Only `pending` (and for QR `claimed`) can move on; every move is a compare-and-set.
    public enum State: String, Sendable {
        /// Waiting for a device.
        case pending
        /// Claimed by a device (QR), waiting for its answer.
        case claimed
        /// Approved by a device.
        case approved
        /// Denied by a device.
        case denied
    }

    /// Opaque random identifier (64 hex characters).
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// Push or QR.
    public var kind: Kind
    /// The user (nil for an anonymous QR challenge until claimed).
    public var userID: String?
    /// The action code.
    public var actionCode: String?
    /// The action's idempotency key.
    public var idempotencyKey: String?
    /// When set, only this authenticator may answer.
    public var targetAuthenticatorID: String?
    /// Current state.
    public var state: State
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Milliseconds since the epoch; no answer is accepted from then on.
    public var expiresAt: Int64
    /// When a device answered, milliseconds since the epoch.
    public var answeredAt: Int64?
    /// The authenticator that answered (or claimed).
    public var answeredBy: String?
    /// The code the device must send when approving (number matching), if any.
    public var verificationCode: String?
    /// Context of the initiating request.
    public var ipAddress: String?
    /// Context of the initiating request.
    public var userAgent: String?
    /// Context of the initiating request.
    public var deviceID: String?
    /// Custom data of the action.
    public var custom: [String: JSONValue]?
    /// SHA-256 of the QR poller's device code.
    public var deviceCodeHash: [UInt8]?

    /// Creates a pending challenge.
    public init(id: String, tenantID: String, kind: Kind, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.tenantID = tenantID
        self.kind = kind
        self.state = .pending
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// A fresh challenge id: 256 random bits as 64 hex characters.
    static func newID() -> String {
        SecureRandom.bytes(32).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Whether it can still be answered at `now`.
    public func isOpen(at now: Int64) -> Bool { (state == .pending || state == .claimed) && now < expiresAt }
}
