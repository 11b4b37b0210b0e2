/// The Android key attestation extension (`1.3.6.1.4.1.11129.2.1.17`) of a leaf certificate, the fields Assent's
/// policy reads:
///
///     KeyDescription ::= SEQUENCE { attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///         keyMintVersion INTEGER, keyMintSecurityLevel SecurityLevel, attestationChallenge OCTET STRING,
///         uniqueId OCTET STRING, softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }
///
/// AuthorizationList entries are EXPLICIT context tags (many in high-tag-number form); those not read here are
/// skipped, a repeated one is malformed.
package struct KeyDescription: Sendable, Hashable {
    package static let oid = "1.3.6.1.4.1.11129.2.1.17"

    package let attestationVersion: Int64
    package let attestationSecurityLevel: AndroidSecurityLevel
    package let keyMintVersion: Int64
    package let keyMintSecurityLevel: AndroidSecurityLevel
    package let attestationChallenge: [UInt8]
    package let softwareEnforced: AuthorizationList
    package let hardwareEnforced: AuthorizationList

    package struct RootOfTrust: Sendable, Hashable {
        package let verifiedBootKey: [UInt8]
        package let deviceLocked: Bool
        package let verifiedBootState: AndroidVerifiedBootState
    }

    package struct ApplicationId: Sendable, Hashable {
        /// The package names (several when they share a user id), each with its version.
        package let packageNames: [String]
        /// SHA-256 digests of the signing certificates.
        package let signatureDigests: [[UInt8]]
    }

    package struct AuthorizationList: Sendable, Hashable {
        package var rootOfTrust: RootOfTrust?
        package var osVersion: Int64?
        package var osPatchLevel: Int64?
        package var applicationId: ApplicationId?
    }

    /// Parses the extension's value (the DER of a KeyDescription).
    package init(der: [UInt8]) throws(AttestationError) {
        let fields = try DERReader.parse(der).sequence()
        guard fields.count >= 8 else { throw AttestationError(.malformed, "KeyDescription has \(fields.count) fields") }
        attestationVersion = try fields[0].integer()
        attestationSecurityLevel = try Self.securityLevel(fields[1])
        keyMintVersion = try fields[2].integer()
        keyMintSecurityLevel = try Self.securityLevel(fields[3])
        attestationChallenge = try fields[4].octetString()
        _ = try fields[5].octetString()  // uniqueId
        softwareEnforced = try Self.authorizationList(fields[6])
        hardwareEnforced = try Self.authorizationList(fields[7])
    }

    private static func securityLevel(_ node: DERNode) throws(AttestationError) -> AndroidSecurityLevel {
        guard let level = AndroidSecurityLevel(rawValue: Int(clamping: try node.enumerated())) else {
            throw AttestationError(.malformed, "an unknown security level")
        }
        return level
    }

    private static func authorizationList(_ node: DERNode) throws(AttestationError) -> AuthorizationList {
        var list = AuthorizationList()
        var seen = Set<UInt32>()
        for entry in try node.sequence() {
            guard entry.tagClass == .contextSpecific, entry.constructed else {
                throw AttestationError(.malformed, "an AuthorizationList entry is not an EXPLICIT context tag")
            }
            guard seen.insert(entry.tagNumber).inserted else {
                throw AttestationError(.malformed, "AuthorizationList repeats tag [\(entry.tagNumber)]")
            }
            switch entry.tagNumber {
            case 704: list.rootOfTrust = try rootOfTrust(entry.explicit(704))
            case 705: list.osVersion = try entry.explicit(705).integer()
            case 706: list.osPatchLevel = try entry.explicit(706).integer()
            case 709: list.applicationId = try applicationId(entry.explicit(709).octetString())
            default: _ = try entry.explicit(entry.tagNumber)
            }
        }
        return list
    }

    private static func rootOfTrust(_ node: DERNode) throws(AttestationError) -> RootOfTrust {
        let fields = try node.sequence()
        guard fields.count >= 3 else { throw AttestationError(.malformed, "RootOfTrust has \(fields.count) fields") }
        guard let state = AndroidVerifiedBootState(rawValue: Int(clamping: try fields[2].enumerated())) else {
            throw AttestationError(.malformed, "an unknown verified boot state")
        }
        return RootOfTrust(verifiedBootKey: try fields[0].octetString(), deviceLocked: try fields[1].boolean(), verifiedBootState: state)
    }

    private static func applicationId(_ der: [UInt8]) throws(AttestationError) -> ApplicationId {
        let fields = try DERReader.parse(der).sequence()
        guard fields.count == 2 else { throw AttestationError(.malformed, "AttestationApplicationId has \(fields.count) fields") }
        var names: [String] = []
        for info in try fields[0].set() {
            let parts = try info.sequence()
            guard parts.count == 2, let name = String(validating: try parts[0].octetString(), as: UTF8.self) else {
                throw AttestationError(.malformed, "an AttestationPackageInfo is malformed")
            }
            _ = try parts[1].integer()
            names.append(name)
        }
        var digests: [[UInt8]] = []
        for digest in try fields[1].set() { digests.append(try digest.octetString()) }
        return ApplicationId(packageNames: names, signatureDigests: digests)
    }
}
