import Assent
import AssentCrypto
import AssentTesting
import Foundation

/// An ``Assent`` wired to a ``FakeTransport``, an ``InMemoryKeyStore`` and a fixed clock.
struct PushFixture {
    static let tenantID = "acme~~"
    /// `"Basic " + base64url_no_padding("acme~~:")` — standard base64 would be `YWNtZX5+Og==`.
    static let tenantAuthorization = "Basic YWNtZX5-Og"
    static let baseURL = "http://assent.test/v1"
    /// 1_796_018_555 / 600 = 2993364.25.
    static let now: Int64 = 1_796_018_555
    static let timeWindowMessage = "2993364.0"

    static let credentialPath = "/v1/client/user-authenticators/push"

    let transport = FakeTransport()
    let keyStore = InMemoryKeyStore()
    let assent: Assent

    init(device: DeviceInfo = DeviceInfo(name: "test-host", platform: "linux"), attester: (any Attester)? = nil) {
        assent = Assent(
            tenantID: Self.tenantID, baseURL: Self.baseURL, keyStore: keyStore, transport: transport,
            clock: .fixed(unixSeconds: Self.now), device: device, attester: attester)
    }

    /// Plants a key as if the device had enrolled before the SDK kept credential ids (so it remembers none), and
    /// returns its base64 SPKI. With `lookup`, the server knows it as `ua_1` (``credentialJSON``): what the SDK asks,
    /// once, before it signs its first bound message with the key (``CredentialIDTests`` covers the remembered id).
    @discardableResult
    func enrol(userPresenceRequired: Bool = false, lookup: Bool = true) throws -> String {
        let key = SoftwareSigningKey(privateKey: P256.PrivateKey(), userPresenceRequired: userPresenceRequired)
        try keyStore.store(key, named: AssentPush.keyName)
        if lookup { transport.on("GET", Self.credentialPath, json: Self.credentialJSON) }
        return Base64.encode(key.publicKey.spkiDER)
    }

    /// The requests sent, without the credential look-ups (the `GET` of the credential the SDK makes to learn the id
    /// its bound messages name, when it remembers none).
    var sent: [TransportRequest] {
        transport.requests.filter { !($0.method == "GET" && [Self.credentialPath, Self.qrPath].contains($0.url.path)) }
    }

    /// The public key of the stored push key, if any.
    func storedPublicKey() async throws -> String? {
        guard let key = try await keyStore.loadKey(named: AssentPush.keyName) else { return nil }
        return Base64.encode(key.publicKey.spkiDER)
    }

    static let credentialJSON = """
        {"userAuthenticatorId":"ua_1","verifiedAt":"2026-11-30T06:16:58.123Z","userId":"alice",\
        "lastVerifiedAt":"2026-12-01T08:00:00.000Z","expiresAt":"2027-03-01T08:00:00.000Z"}
        """
}
