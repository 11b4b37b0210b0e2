public import AssentCrypto
import AssentSync

/// Which factors sign a request, and with what: the password for knowledge, a prompt for biometry (biometry-setup.md's
/// `PowerAuthAuthentication`). Possession is always part of it.
///
/// After the server refuses a request signed with it (HTTP 401), the object is invalidated and every later use fails
/// with `authentication_invalidated`: re-sending the same credentials would only burn failed attempts. The SDK does
/// this for the requests it sends itself; for a request your app sends with a header from
/// ``AssentPowerAuth/authenticationHeaderForRequestWithBody(_:method:uriId:body:)``, call ``invalidate()`` on a 401.
public final class PowerAuthAuthentication: Sendable {
    /// The signature type these factors make.
    public let signatureType: PowerAuthSignatureType
    let knowledgePassword: String?
    let biometryPrompt: AuthenticationPrompt?

    private struct State {
        var invalidated = false
        /// Set for the reusable object of a grouped biometric authentication.
        var reusable = false
        var biometryKey: [UInt8]?
        var lastUse: Int64 = 0
    }

    private let state: AssentLock<State>

    private init(_ type: PowerAuthSignatureType, password: String?, prompt: AuthenticationPrompt?, reusable: Bool = false) {
        signatureType = type
        knowledgePassword = password
        biometryPrompt = prompt
        state = AssentLock(State(reusable: reusable))
    }

    /// Possession only (`possession`).
    public static func possession() -> PowerAuthAuthentication {
        PowerAuthAuthentication(.possession, password: nil, prompt: nil)
    }

    /// Possession and the password (`possession_knowledge`).
    public static func password(_ password: String) -> PowerAuthAuthentication {
        PowerAuthAuthentication(.possessionKnowledge, password: password, prompt: nil)
    }

    /// Possession and biometry (`possession_biometry`): the biometric prompt shows `prompt` when the key is needed.
    public static func biometry(prompt: AuthenticationPrompt = .default) -> PowerAuthAuthentication {
        PowerAuthAuthentication(.possessionBiometry, password: nil, prompt: prompt)
    }

    /// All three factors (`possession_knowledge_biometry`).
    public static func passwordAndBiometry(password: String, prompt: AuthenticationPrompt = .default)
        -> PowerAuthAuthentication
    {
        PowerAuthAuthentication(.possessionKnowledgeBiometry, password: password, prompt: prompt)
    }

    /// Whether the biometry factor is part of it.
    public var usesBiometry: Bool { signatureType.factors.contains(.biometry) }

    /// Whether the object may no longer sign (the server refused it with 401, or ``invalidate()`` was called).
    public var isInvalidated: Bool { state.withLock { $0.invalidated } }

    /// Marks the object unusable and forgets any biometry key it holds: call it when the server answers 401 to a
    /// request it signed.
    public func invalidate() {
        state.withLock {
            $0.invalidated = true
            $0.biometryKey = nil
        }
    }

    // MARK: Grouped (reusable) biometric authentication

    /// A reusable copy, for a grouped biometric authentication.
    func reusableCopy() -> PowerAuthAuthentication {
        PowerAuthAuthentication(signatureType, password: knowledgePassword, prompt: biometryPrompt, reusable: true)
    }

    /// The unlocked biometry key, when this is a reusable object used within `keepAlive` of its last use; refreshes
    /// the last use. Releases an expired key.
    func reusableBiometryKey(now: Int64, keepAlive: Int64) -> [UInt8]? {
        state.withLock { state in
            guard state.reusable, let key = state.biometryKey else { return nil }
            guard now >= state.lastUse, now - state.lastUse < keepAlive else {
                state.biometryKey = nil
                return nil
            }
            state.lastUse = now
            return key
        }
    }

    /// Keeps `key` (reusable objects only) from `now`.
    func remember(biometryKey key: [UInt8], now: Int64) {
        state.withLock { state in
            guard state.reusable, !state.invalidated else { return }
            state.biometryKey = key
            state.lastUse = now
        }
    }

    /// Releases the key at the end of a grouped authentication; later uses prompt again.
    func release() {
        state.withLock {
            $0.biometryKey = nil
            $0.reusable = false
        }
    }
}
