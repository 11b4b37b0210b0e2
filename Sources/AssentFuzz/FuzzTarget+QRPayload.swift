import AssentWire

extension FuzzTarget {
    /// A scanned QR code's text, as the SDK reads it before claiming. What it accepts names a 64-hex challenge id.
    static let qrPayload = FuzzTarget(name: "qr-payload") { bytes in
        guard let payload = QRPayload(text: String(decoding: bytes, as: UTF8.self)) else { return }
        precondition(
            payload.challengeID.utf8.count == 64
                && payload.challengeID.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) },
            "a payload without a challenge id was accepted")
        _ = payload.text
    }
}
