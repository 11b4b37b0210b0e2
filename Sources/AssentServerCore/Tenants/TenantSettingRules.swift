package import AssentCrypto
package import AssentWire
import Foundation

/// The rules a tenant setting's value must follow, read from text: one definition for every place a person types a
/// setting (`assent admin tenant settings` and the admin console's settings page), so both accept and refuse the same
/// values with the same words.
///
/// Each reader takes the text and the name to put in its message (a CLI flag such as `--push-throttle`, or a form
/// field's label) and throws `AssentError.invalidRequest` naming it when the text is not a valid value. Nothing is
/// changed by reading: callers read every value first and change the settings only when all were valid.
package enum TenantSettingRules {
    /// Track token lifetime in seconds, as `assentd --token-lifetime` allows.
    package static let tokenLifetime = 30...3600
    /// How long a push or QR challenge stays open, seconds.
    package static let challengeTimeout = 10...600
    /// A push credential's lease, seconds (up to ten years).
    package static let pushCredentialLifetime = 60...(10 * 365 * 86_400)
    /// Most open push challenges per user.
    package static let maxPendingPush = 1...100
    /// Most action codes whose approvals must be attested. (The anonymous QR allowlist holds at most
    /// `AnonymousQRSettings.maxActionCodes`, which its own route reads too.)
    package static let maxAttestedApprovalActions = 100
    /// The first push throttle after failed pushes, seconds.
    package static let pushThrottle = 1...3600
    /// The push lock after a "this wasn't me", seconds (up to 30 days).
    package static let fraudLock = 0...(30 * 86_400)
    /// Failed PowerAuth signatures before an activation is blocked.
    package static let maxFailedAttempts = 1...64
    /// Days the sign-in history keeps each outcome (up to ten years).
    package static let signInHistoryRetentionDays = 1...3650

    /// A whole number within `range`.
    package static func number(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw AssentError(
                .invalidRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// `on`/`true`/`yes` or `off`/`false`/`no`, in any case.
    package static func onOff(_ text: String, _ name: String) throws -> Bool {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw AssentError(.invalidRequest, "\(name) must be on or off, got '\(text)'")
        }
    }

    /// The allowed action state spellings, for messages.
    package static let allowedStates = ActionState.allCases.map(\.rawValue).joined(separator: ", ")

    /// An action state: `BLOCK`, `block` and `challenge-required` are all understood.
    package static func state(_ text: String, _ name: String) throws -> ActionState {
        let normalized = text.trimmingCharacters(in: .whitespaces).uppercased().replacingOccurrences(of: "-", with: "_")
        guard let state = ActionState(rawValue: normalized) else {
            throw AssentError(.invalidRequest, "invalid state '\(text)' for \(name); allowed: \(allowedStates)")
        }
        return state
    }

    /// A PowerAuth signature type, or nil for `none`.
    package static func factor(_ text: String, _ name: String) throws -> PowerAuthSignatureType? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "none" { return nil }
        guard let type = PowerAuthSignatureType(rawValue: trimmed) else {
            throw AssentError(.invalidRequest, "\(name) must be a PowerAuth signature type ("
                + PowerAuthSignatureType.allCases.map(\.rawValue).joined(separator: ", ") + ") or 'none', got '\(text)'")
        }
        return type
    }

    /// An action code as the server API accepts it in a path: 1 to 100 letters, digits and `_ - . :`.
    package static func actionCode(_ text: String, _ name: String) throws -> String {
        guard !text.isEmpty, text.utf8.count <= 100, text.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_-.:".unicodeScalars.contains($0)
        }) else {
            throw AssentError(
                .invalidRequest, "\(name): an action code must be 1 to 100 letters, digits and _ - . :, got '\(text)'")
        }
        return text
    }

    /// A comma-separated list of custom data keys (blanks dropped).
    package static func keys(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The tenant's webhook URL: an http(s) URL with a host, or nil for `none`.
    package static func webhookURL(_ text: String, _ name: String) throws -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "none" { return nil }
        guard trimmed.utf8.count <= 2048, let url = URL(string: trimmed), ["http", "https"].contains(url.scheme ?? ""),
              url.host != nil
        else {
            throw AssentError(.invalidRequest, "\(name) must be an http(s) URL or 'none', got '\(text)'")
        }
        return trimmed
    }

    /// Track token lifetime in seconds, or nil for `default` (the server's `--token-lifetime`).
    package static func tokenLifetime(_ text: String, _ name: String) throws -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "default" { return nil }
        guard let seconds = Int(trimmed), tokenLifetime.contains(seconds) else {
            throw AssentError(.invalidRequest,
                "\(name) must be a whole number of seconds from \(tokenLifetime.lowerBound) to "
                    + "\(tokenLifetime.upperBound), or 'default'; got '\(text)'")
        }
        return seconds
    }

    /// A push credential's lease in seconds, or nil for `none` (credentials never lapse).
    package static func pushCredentialLifetime(_ text: String, _ name: String) throws -> Int? {
        text.trimmingCharacters(in: .whitespaces).lowercased() == "none" ? nil : try number(text, name, pushCredentialLifetime)
    }

    /// The action codes anonymous QR starts may name, comma-separated; `none` (or nothing) allows none.
    package static func anonymousActions(_ text: String, _ name: String) throws -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "none" { return [] }
        return try trimmed.split(separator: ",").map { try actionCode($0.trimmingCharacters(in: .whitespaces), name) }
    }

    /// `ACTION:ENROLLED_STATE:UNENROLLED_STATE`, split at the last two colons (action codes may hold colons); a state
    /// part may be empty (the default rule for it).
    package static func actionRule(_ text: String, _ name: String) throws -> (action: String, rule: TenantSettings.ActionRule) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3 else {
            throw AssentError(.invalidRequest,
                "\(name) must be ACTION:ENROLLED_STATE:UNENROLLED_STATE (a state part may be empty), got '\(text)'")
        }
        let action = try actionCode(parts.dropLast(2).joined(separator: ":"), name)
        func state(_ part: Substring) throws -> ActionState? {
            part.isEmpty ? nil : try Self.state(String(part), "\(name) \(action)")
        }
        return (action, TenantSettings.ActionRule(enrolled: try state(parts[parts.count - 2]),
                                                  unenrolled: try state(parts[parts.count - 1])))
    }

    /// `ACTION:TYPE` (a PowerAuth signature type) or `ACTION:none` (nil: remove the action's rule).
    package static func approvalFactorRule(_ text: String, _ name: String) throws -> (action: String, factor: PowerAuthSignatureType?) {
        guard let colon = text.lastIndex(of: ":") else {
            throw AssentError(.invalidRequest, "\(name) must be ACTION:TYPE or ACTION:none, got '\(text)'")
        }
        let action = try actionCode(String(text[..<colon]), name)
        let type = String(text[text.index(after: colon)...])
        if type.lowercased() == "none" { return (action, nil) }
        guard let factor = PowerAuthSignatureType(rawValue: type) else {
            throw AssentError(.invalidRequest, "\(name) \(action): '\(type)' is not a PowerAuth signature type or 'none'")
        }
        return (action, factor)
    }
}

// MARK: - Shared by the setting kinds (TenantSetting.Kind)

extension TenantSettingRules {
    /// What an action code matches, as a JSON Schema pattern.
    package static let actionCodePattern = "^[A-Za-z0-9_.:-]{1,100}$"

    /// `text` without the spaces around it.
    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces) }

    /// The lines of `text` that are not blank, trimmed.
    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    /// The refusal of a JSON value of the wrong type or out of bounds: `name must be what`.
    static func wrongType(_ name: String, _ what: String) -> AssentError {
        AssentError(.invalidRequest, "\(name) must be \(what)")
    }

    /// A JSON whole number, within `range` when one is given.
    static func integer(_ value: JSONValue, _ name: String, _ range: ClosedRange<Int>?) throws -> Int {
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e15 else {
            throw wrongType(name, range.map { "a whole number from \($0.lowerBound) to \($0.upperBound)" } ?? "a whole number")
        }
        let integer = Int(number)
        if let range, !range.contains(integer) {
            throw wrongType(name, "a whole number from \(range.lowerBound) to \(range.upperBound), got \(integer)")
        }
        return integer
    }

    /// A JSON array of strings.
    static func strings(_ value: JSONValue, _ name: String) throws -> [String] {
        guard case .array(let items) = value else { throw wrongType(name, "an array of strings") }
        return try items.map { item in
            guard case .string(let string) = item else { throw wrongType(name, "an array of strings") }
            return string
        }
    }

    /// The JSON Schema of a whole number within `range`.
    static func integerSchema(_ range: ClosedRange<Int>) -> JSONValue {
        .object(["type": .string("integer"), "minimum": .number(Double(range.lowerBound)), "maximum": .number(Double(range.upperBound))])
    }

    /// What a duration accepts: "a number of seconds, from 1 minute to 10 years".
    package static func secondsAccepted(_ range: ClosedRange<Int>) -> String {
        "a number of seconds, from \(duration(range.lowerBound)) to \(duration(range.upperBound))"
    }

    /// `seconds` in the largest units that add up to it exactly: "10 years", "1 hour 30 minutes", "0 seconds" (a
    /// year is 365 days, as the settings' bounds count it).
    package static func duration(_ seconds: Int) -> String {
        let units: [(Int, String)] = [(365 * 86_400, "year"), (86_400, "day"), (3600, "hour"), (60, "minute"), (1, "second")]
        guard seconds > 0 else { return "\(seconds) seconds" }
        var left = seconds
        var parts: [String] = []
        for (size, name) in units where left >= size {
            let count = left / size
            left -= count * size
            parts.append("\(count) \(name)\(count == 1 ? "" : "s")")
        }
        return parts.joined(separator: " ")
    }
}

// MARK: - Device attestation

extension TenantSettingRules {
    /// An App Attest app id: a ten-character team id, a dot, a bundle id.
    package static let appIdPattern = "^[A-Z0-9]{10}\\.[A-Za-z0-9][A-Za-z0-9.-]{0,200}$"
    /// An Android package name: dot-separated Java identifiers.
    package static let packagePattern = "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$"

    /// An App Attest app id (`TEAMID.bundle.id`).
    static func appleAppId(_ text: String, _ name: String) throws -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let bundle = parts.count == 2 ? parts[1] : ""
        guard parts.count == 2, parts[0].count == 10,
              parts[0].unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }),
              !bundle.isEmpty, bundle.utf8.count <= 201, !bundle.hasPrefix("."), !bundle.hasPrefix("-"),
              bundle.unicodeScalars.allSatisfy({
                  ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
              })
        else {
            throw AssentError(.invalidRequest, "\(name): an app id must be TEAMID.bundle.id (a ten-character team id), got '\(text)'")
        }
        return text
    }

    /// An Android package with its signing certificate digests (64 hex characters each, stored lowercase).
    static func androidPackage(_ package: String, _ digests: [String], _ name: String) throws -> AndroidPackageRule {
        let segments = package.split(separator: ".", omittingEmptySubsequences: false)
        guard package.utf8.count <= 255, segments.count >= 2, segments.allSatisfy({ segment in
            guard let first = segment.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
                return false
            }
            return segment.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
        }) else {
            throw AssentError(.invalidRequest, "\(name): '\(package)' is not an Android package name")
        }
        guard (1...10).contains(digests.count), digests.allSatisfy({ digest in
            digest.utf8.count == 64 && digest.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit }
        }) else {
            throw AssentError(.invalidRequest,
                "\(name) \(package): 1 to 10 signing certificate SHA-256 digests of 64 hex characters each")
        }
        return AndroidPackageRule(packageName: package, signingCertificateSha256: digests.map { $0.lowercased() })
    }

    /// `package.name:HEX,HEX` added (replacing that package's entry), or `package.name:none` removing it.
    static func mergeAndroidPackage(_ text: String, _ name: String, _ rules: inout [AndroidPackageRule]) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw AssentError(.invalidRequest, "\(name) must be package.name:SHA256HEX,SHA256HEX, got '\(text)'")
        }
        let package = trimmed(String(text[..<colon]))
        let rest = trimmed(String(text[text.index(after: colon)...]))
        rules.removeAll { $0.packageName == package }
        if rest.lowercased() == "none" { return }
        rules.append(try androidPackage(package, keys(rest), name))
    }
}
