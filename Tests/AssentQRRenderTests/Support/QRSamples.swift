import AssentQRRender

/// Payloads and correction levels every image test covers.
enum QRSamples {
    /// A few bytes: the smallest symbols.
    static let short = "Assent"
    /// What the server puts in a QR code: a tenant UUID and a 32-byte challenge in hex.
    static let typical =
        "assent://qr?tenant=3f2b8c1e-9d4a-4e6b-a1c7-5b0e2d9f8a64"
        + "&challenge=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    /// About 300 bytes: a large symbol (version 19 or so at high correction).
    static let long: String = {
        var text = typical + "&origin=https%3A%2F%2Flogin.example.com&note="
        let filler = "The+quick+brown+fox+jumps+over+the+lazy+dog+0123456789-"
        while text.utf8.count < 300 { text += filler }
        return String(text.prefix(300))
    }()

    static let payloads = [short, typical, long]
    static let corrections: [QRCodeMatrix.Correction] = [.low, .medium, .quartile, .high]
}
