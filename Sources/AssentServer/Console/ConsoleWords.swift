import AssentServerCore
import AssentWire

/// The words the console shows for the server's wire names: kinds, platforms, states and reasons as an operator says
/// them ("QR code device", "Linux (vm)", "Approved") instead of `DEVICE`, `LINUX · vm` or `approved`. The wire names
/// stay where programs read them: the console's JSON and the pages' `data-*` attributes.
enum ConsoleWords {
    /// An authenticator's verification method: `PUSH` is "Push", `DEVICE` (the QR code credential) "QR code device".
    static func method(_ method: VerificationMethod) -> String {
        switch method.rawValue {
        case "PUSH": "Push"
        case "DEVICE": "QR code device"
        case "SMS": "SMS"
        case "EMAIL_OTP": "E-mail code"
        case "EMAIL_MAGIC_LINK": "E-mail link"
        case "AUTHENTICATOR_APP": "Authenticator app"
        case "PASSKEY": "Passkey"
        case "SECURITY_KEY": "Security key"
        case "RECOVERY_CODE": "Recovery code"
        case "WHATSAPP": "WhatsApp"
        default: sentence(method.rawValue)
        }
    }

    /// A device's platform (stored upper-case, `IOS`) and name: "iOS (Ann's phone)", "Linux", or a dash.
    static func device(platform: String?, name: String?) -> String {
        let platformWord: String? = platform.map {
            switch $0.uppercased() {
            case "IOS": "iOS"
            case "IPADOS": "iPadOS"
            case "MACOS": "macOS"
            case "ANDROID": "Android"
            case "LINUX": "Linux"
            case "WINDOWS": "Windows"
            case "WEB": "Web"
            default: sentence($0)
            }
        }
        switch (platformWord, name) {
        case (let platform?, let name?): return "\(platform) (\(name))"
        case (let platform?, nil): return platform
        case (nil, let name?): return name
        case (nil, nil): return "—"
        }
    }

    /// A challenge's kind: "Push" or "QR code".
    static func challengeKind(_ kind: Challenge.Kind) -> String {
        switch kind {
        case .push: "Push"
        case .qrCode: "QR code"
        }
    }

    /// A challenge's state as ``ConsoleUserHTML/state(of:now:)`` names it (`pending`, …, `expired`): "Pending", ….
    static func challengeState(_ state: String) -> String { sentence(state) }

    /// An activation's status: "Pending commit", "Active", "Blocked", ….
    static func activationStatus(_ status: ActivationStatus) -> String { sentence(status.rawValue) }

    /// Why an activation is blocked.
    static func blockedReason(_ reason: ActivationBlockedReason) -> String {
        switch reason {
        case .maxFailedAttempts: "Too many failed attempts"
        case .blockedByBackend: "Blocked by the backend"
        }
    }

    /// A push provider: "APNs", "FCM", "Webhook", ….
    static func provider(_ provider: PushSettings.Provider) -> String {
        switch provider {
        case .apns: "APNs"
        case .fcm: "FCM"
        case .webhook: "Webhook"
        case .default: "Default (APNs for iOS, FCM for the rest)"
        case .none: "None"
        }
    }

    /// A push delivery's state: "Queued", "Delivered", "Stale token", ….
    static func deliveryState(_ state: PushDelivery.State) -> String { sentence(state.rawValue) }

    /// A credential's device attestation as an operator says it, without its time: "Apple App Attest, verified: app
    /// TEAMID.bundle.id, production environment" or "Android key attestation, verified: package com.example.app, key in
    /// the TEE, Android 16 (patch 2026-06), verified boot, revocation checked"; "None" without one.
    static func attestation(_ verdict: CredentialAttestation?) -> String {
        guard let verdict else { return "None" }
        let format = switch verdict.format {
        case "apple-appattest": "Apple App Attest"
        case "android-key": "Android key attestation"
        default: verdict.format
        }
        var facts: [String] = [verdict.format == "android-key" ? "package \(verdict.app)" : "app \(verdict.app)"]
        if let environment = verdict.environment { facts.append("\(environment) environment") }
        if let level = verdict.securityLevel {
            facts.append(level == "strongbox" ? "key in StrongBox" : level == "tee" ? "key in the TEE" : "key in \(level)")
        }
        if let version = verdict.osVersion {
            var os = "Android \(version / 10_000)"
            if (version / 100) % 100 != 0 || version % 100 != 0 { os += ".\((version / 100) % 100)" }
            if version % 100 != 0 { os += ".\(version % 100)" }
            if let patch = verdict.patchLevel { os += " (patch \(patch / 100)-\(patch % 100 < 10 ? "0" : "")\(patch % 100))" }
            facts.append(os)
        }
        if let boot = verdict.bootState {
            let words = switch boot {
            case "verified": "verified boot"
            case "selfSigned": "self-signed boot image"
            case "unverified": "unverified boot (unlocked bootloader)"
            case "failed": "failed boot verification"
            default: "boot state \(boot)"
            }
            facts.append(words)
        }
        if let checked = verdict.revocationChecked { facts.append(checked ? "revocation checked" : "revocation not checked") }
        return "\(format), \(verdict.verified ? "verified" : "not verified"): " + facts.joined(separator: ", ")
    }

    /// `PENDING_COMMIT` or `stale_token` as a sentence's words: "Pending commit", "Stale token".
    static func sentence(_ wire: String) -> String {
        let words = String(wire.map { $0 == "_" ? " " : $0 }).lowercased()
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
