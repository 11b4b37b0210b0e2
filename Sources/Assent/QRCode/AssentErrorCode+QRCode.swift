extension AssentErrorCode {
    /// A QR payload that is neither an Assent QR URI (`assent://qr?tenant=…&challenge=…`) nor a bare challenge ID;
    /// nothing was sent.
    public static let invalidQRPayload = "invalid_qr_payload"
    /// A QR payload naming a tenant other than the one this SDK belongs to; nothing was sent, so a code shown by
    /// another tenant's page cannot make this device sign anything for it.
    public static let tenantMismatch = "tenant_mismatch"

    // Codes the server sends for QR challenges, listed for convenience.

    /// The challenge has expired, or another device claimed (or answered) it first.
    public static let challengeClosed = "challenge_closed"
    /// This credential may not act on the challenge: it was started for another user, or claimed by another device.
    public static let forbidden = "forbidden"
}
