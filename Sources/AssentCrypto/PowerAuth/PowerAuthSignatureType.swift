/// Which factors a PowerAuth signature combines; the raw values are the `pa_signature_type` spellings.
public enum PowerAuthSignatureType: String, Sendable, Hashable, CaseIterable, Codable {
    /// Possession only (1FA).
    case possession
    /// Knowledge only (1FA).
    case knowledge
    /// Biometry only (1FA).
    case biometry
    /// Possession and knowledge (PIN).
    case possessionKnowledge = "possession_knowledge"
    /// Possession and biometry.
    case possessionBiometry = "possession_biometry"
    /// Possession, knowledge and biometry.
    case possessionKnowledgeBiometry = "possession_knowledge_biometry"

    /// The factors, in the order their keys enter the HMAC chain (possession, knowledge, biometry).
    public var factors: [PowerAuthFactor] {
        switch self {
        case .possession: return [.possession]
        case .knowledge: return [.knowledge]
        case .biometry: return [.biometry]
        case .possessionKnowledge: return [.possession, .knowledge]
        case .possessionBiometry: return [.possession, .biometry]
        case .possessionKnowledgeBiometry: return [.possession, .knowledge, .biometry]
        }
    }

    /// Whether every factor of `required` is among this type's factors (so a signature of this type proves at
    /// least what `required` asks for).
    public func satisfies(_ required: PowerAuthSignatureType) -> Bool {
        Set(required.factors).isSubset(of: Set(factors))
    }

    /// Whether a failed signature of this type can count as a failed attempt: it has a possession component beside
    /// other factors, and a failure counts only when that component verifies (so only the device itself, which holds
    /// the possession key, can spend its attempts on a wrong PIN or biometry). `possession` proves nothing the user
    /// could guess; `knowledge` and `biometry` alone have no possession component, so their failures count nowhere
    /// (a stranger could make them up).
    public var countsFailedAttempts: Bool {
        factors.count > 1 && factors.first == .possession
    }
}

/// One authentication factor of a PowerAuth activation.
public enum PowerAuthFactor: String, Sendable, Hashable, CaseIterable {
    /// The device holds the activation (`KEY_SIGNATURE_POSSESSION`).
    case possession
    /// The user knows the password or PIN (`KEY_SIGNATURE_KNOWLEDGE`).
    case knowledge
    /// The user passed biometric authentication (`KEY_SIGNATURE_BIOMETRY`).
    case biometry
}
