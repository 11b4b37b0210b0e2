/// `GET`/`PATCH /v1/tenant/qr-code`: what an anonymous QR start (tenant ID only, no track token) may do. Anyone who
/// knows the tenant ID can make one, so it may name only these action codes, and its approvals need this factor
/// whatever code it names. In a `PATCH` only the fields present change; a `GET` answers both.
public struct AnonymousQRSettings: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The most action codes the allowlist holds.
    public static let maxActionCodes = 64

    /// The action codes an anonymous start may name (empty: none may be started).
    public var anonymousActionCodes: [String]?
    /// The PowerAuth signature type (e.g. `possession_biometry`) anonymous approvals need; null in a `PATCH` removes
    /// it, and then the tenant's required approval factor applies.
    public var anonymousApprovalFactor: String??

    /// Settings with the given fields.
    public init(anonymousActionCodes: [String]? = nil, anonymousApprovalFactor: String?? = nil) {
        self.anonymousActionCodes = anonymousActionCodes
        self.anonymousApprovalFactor = anonymousApprovalFactor
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "What an anonymous QR start (tenant ID only, no track token) may do. In a PATCH only the fields present "
            + "change; a GET answers both.", blank: { Self() }, [
            .actionCodes("anonymousActionCodes", \.anonymousActionCodes, maxCount: maxActionCodes,
                         "The action codes an anonymous start may name (empty: none may be started)."),
            .nullableString("anonymousApprovalFactor", \.anonymousApprovalFactor, maxLength: 64,
                            "The PowerAuth signature type anonymous approvals need; null removes it."),
        ])

    private enum CodingKeys: String, CodingKey { case anonymousActionCodes, anonymousApprovalFactor }

    /// Writes both fields, the factor as null when unset.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(anonymousActionCodes ?? [], forKey: .anonymousActionCodes)
        try container.encode(anonymousApprovalFactor ?? nil, forKey: .anonymousApprovalFactor)
    }
}
