package import AssentWire

/// What an approval carries to prove a PowerAuth factor (``ActivationService/requireApprovalFactor(tenant:challenge:userID:proof:)``):
/// the signature it came with, as the HTTP layer parsed it, and what that signature covers. Only a tenant that
/// requires a factor looks at it, so a malformed signature is kept as such and refused only there.
package struct ApprovalProof: Sendable {
    /// The PowerAuth signature an approval came with.
    package enum Signature: Sendable {
        /// None (or an empty one).
        case none
        /// One that parses.
        case signed(PowerAuthAuthorizationHeader)
        /// One that does not parse, and why.
        case malformed(reason: String)
    }

    /// The signature.
    var signature: Signature
    /// The `uriId` it signs: the path of the endpoint the answer went to.
    var uriID: String
    /// The data it signs: the answer's body as sent.
    var body: [UInt8]

    /// `signature` over (`POST`, `uriID`, `body`).
    package init(signature: Signature, uriID: String, body: [UInt8]) {
        self.signature = signature
        self.uriID = uriID
        self.body = body
    }
}
