import AssentCrypto
package import AssentWire

/// A request for a device to approve an action: a push challenge (started by the initiating page for a known
/// user) or a QR challenge (shown by a page and claimed by whichever device scans it).
package struct Challenge: Sendable, Hashable {
    /// What kind of challenge.
    package enum Kind: String, Sendable {
        /// Pulled by (or pushed to) the user's push credentials.
        case push
        /// Claimed by scanning a QR code.
        case qrCode = "qr"

        /// The states a device may answer a challenge of this kind from: a push challenge while it is pending, a QR
        /// challenge only once the answering device has claimed it.
        package var answerableStates: [State] {
            switch self {
            case .push: [.pending]
            case .qrCode: [.claimed]
            }
        }

        /// How an answer to this kind is recorded on the action (a QR approval is a `DEVICE` verification).
        package var verificationMethod: VerificationMethod {
            switch self {
            case .push: .push
            case .qrCode: .device
            }
        }
    }

    /// Where it stands. Only `pending` (and for QR `claimed`) can move on; every move is a compare-and-set.
    package enum State: String, Sendable {
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
    package var id: String
    /// The tenant.
    package var tenantID: String
    /// Push or QR.
    package var kind: Kind
    /// The user (nil for an anonymous QR challenge until claimed).
    package var userID: String?
    /// The action code.
    package var actionCode: String?
    /// The action's idempotency key.
    package var idempotencyKey: String?
    /// When set, only this authenticator may answer.
    package var targetAuthenticatorID: String?
    /// Current state.
    package var state: State
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// Milliseconds since the epoch; no answer is accepted from then on.
    package var expiresAt: Int64
    /// When a device answered, milliseconds since the epoch.
    package var answeredAt: Int64?
    /// The authenticator that answered (or claimed).
    package var answeredBy: String?
    /// The code the device must send when approving (number matching), if any.
    package var verificationCode: String?
    /// Context of the initiating request.
    package var ipAddress: String?
    /// Context of the initiating request.
    package var userAgent: String?
    /// Context of the initiating request.
    package var deviceID: String?
    /// Custom data of the action.
    package var custom: [String: JSONValue]?
    /// SHA-256 of the QR poller's device code.
    package var deviceCodeHash: [UInt8]?
    /// Opened anonymously (a QR challenge started with the tenant ID only): its context is the caller's word, not the
    /// tenant's, and its approvals follow ``TenantSettings/anonymousApprovalFactor``. Stays set after the claim.
    package var isAnonymous = false

    /// Creates a pending challenge.
    package init(id: String, tenantID: String, kind: Kind, createdAt: Int64, expiresAt: Int64) {
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
    package func isOpen(at now: Int64) -> Bool { (state == .pending || state == .claimed) && now < expiresAt }
}
