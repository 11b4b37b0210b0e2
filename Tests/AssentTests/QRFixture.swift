import Assent
import AssentCrypto
import Foundation
import AssentTesting

/// QR code helpers on the shared ``PushFixture`` (same fake transport, key store, tenant and clock).
extension PushFixture {
    static let qrPath = "/v1/client/user-authenticators/qr-code"
    /// A challenge ID as the server makes them: 64 lowercase hex characters.
    static let challengeID = String(repeating: "0123456789abcdef", count: 4)

    /// Plants a QR key as if the device had enrolled for QR codes before credential ids were kept, and returns its
    /// base64 SPKI; with `lookup`, the server knows it as `ua_1` (asked once, then remembered).
    @discardableResult
    func enrolQR(userPresenceRequired: Bool = false, lookup: Bool = true) throws -> String {
        let key = SoftwareSigningKey(privateKey: P256.PrivateKey(), userPresenceRequired: userPresenceRequired)
        try keyStore.store(key, named: AssentQRCode.keyName)
        if lookup { transport.on("GET", Self.qrPath, json: Self.credentialJSON) }
        return Base64.encode(key.publicKey.spkiDER)
    }

    /// The public key stored under `name`, if any.
    func storedPublicKey(named name: String) async throws -> String? {
        guard let key = try await keyStore.loadKey(named: name) else { return nil }
        return Base64.encode(key.publicKey.spkiDER)
    }

    static let claimJSON = """
        {"success":true,"ipAddress":"198.51.100.4","userAgent":"KioskBrowser/1.0","actionCode":"kioskSignIn",\
        "idempotencyKey":"idem-7","custom":{"terminal":"Lobby 2","floor":3},"user":{"custom":{"tier":"gold"}},\
        "location":"Wellington, New Zealand"}
        """
}
