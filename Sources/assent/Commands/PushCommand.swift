import AssentServerCore
import AssentWire
import Foundation

/// `assent admin tenant push`: shows and changes how a tenant's push challenges are delivered. Credentials are read
/// from files, sealed under the master key before they reach the database, and never printed.
enum PushCommand {
    static let command = Command.leaf(
        "push", "show a tenant's push delivery settings, after applying any changes given",
        details: """
            Providers: webhook (a synchronous push.created event to your backend), apns, fcm, default (APNs for iOS
            devices, FCM for the rest) and none (devices pull pending challenges; the default).
            The APNs key (.p8) and the FCM service-account JSON are stored encrypted under the master key; only
            "configured", the key id, team id, topic, environment and project are ever shown.
            Nothing changes unless every value given is valid.
            """,
        options: [
            TenantDatabase.option,
            TenantDatabase.tenantOption,
            .optional("--provider", "webhook|apns|fcm|default|none", "who sends the notification"),
            .optional("--webhook-url", "URL|tenant", "where push.created goes (tenant: the tenant's webhook URL)"),
            .optional("--webhook-best-effort", "on|off", "a failed push.created is recorded instead of failing the start"),
            .optional("--apns-key-file", "FILE", "the team's APNs auth key (.p8, PKCS#8 PEM)"),
            .optional("--apns-key-id", "ID", "the key's id"),
            .optional("--apns-team-id", "ID", "the team id"),
            .optional("--apns-topic", "BUNDLE_ID", "the app's bundle id"),
            .optional("--apns-environment", "sandbox|production", "which APNs (default production)"),
            .flag("--remove-apns", "forget the APNs credentials"),
            .optional("--fcm-service-account", "FILE", "the Firebase service-account JSON file"),
            .flag("--remove-fcm", "forget the FCM credentials"),
            PrivateURLs.option,
        ]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let options = invocation.options
        var change = PushSettingsEditor.Change()
        if let name = options.string("--provider") {
            guard let provider = PushSettings.Provider(rawValue: name.lowercased()) else {
                throw CLIError.usage("--provider must be webhook, apns, fcm, default or none, got '\(name)'")
            }
            change.provider = provider
        }
        if let url = options.string("--webhook-url") {
            change.webhookURL = url.lowercased() == "tenant" ? .some(nil) : .some(url)
        }
        if let text = options.string("--webhook-best-effort") {
            switch text.lowercased() {
            case "on", "true", "yes": change.webhookBestEffort = true
            case "off", "false", "no": change.webhookBestEffort = false
            default: throw CLIError.usage("--webhook-best-effort must be on or off, got '\(text)'")
            }
        }
        change.apnsKeyPEM = try options.string("--apns-key-file").map { try read($0, option: "--apns-key-file") }
        change.apnsKeyID = options.string("--apns-key-id")
        change.apnsTeamID = options.string("--apns-team-id")
        change.apnsTopic = options.string("--apns-topic")
        change.apnsEnvironment = options.string("--apns-environment")
        change.removeAPNs = options.flag("--remove-apns")
        change.fcmServiceAccountJSON = try options.string("--fcm-service-account").map {
            try read($0, option: "--fcm-service-account")
        }
        change.removeFCM = options.flag("--remove-fcm")
        let view = try await TenantDatabase.withDirectory(invocation) { directory, keys in
            let tenant = try await TenantDatabase.tenant(tenantID, in: directory)
            if change.isEmpty { return PushSettingsEditor.view(tenant.settings) }
            let editor = PushSettingsEditor(keys: keys, destinations: PrivateURLs.policy(invocation.options))
            try await editor.checkDestinations(of: change)
            let updated = try await directory.updateSettings(tenantID: tenantID) {
                try editor.apply(change, to: &$0, tenantID: tenantID)
            }
            return PushSettingsEditor.view(updated.settings)
        }
        try invocation.output.result(view) { describe(view) }
    }

    private static func read(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024 else {
            throw CLIError.usage("\(option): cannot read '\(path)' (or it is larger than 64 KiB)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func describe(_ view: PushSettingsResponse) -> String {
        var lines = ["provider:            \(view.provider)"]
        lines.append("webhook URL:         \(view.webhookUrl ?? "none")\(view.webhookBestEffort ? " (best effort)" : "")")
        if view.apns.configured {
            lines.append(
                "APNs:                configured (key \(view.apns.keyId ?? "?"), team \(view.apns.teamId ?? "?"), "
                    + "topic \(view.apns.topic ?? "?"), \(view.apns.environment ?? "?"))")
        } else {
            lines.append("APNs:                not configured")
        }
        if view.fcm.configured {
            lines.append("FCM:                 configured (project \(view.fcm.projectId ?? "?"), \(view.fcm.clientEmail ?? "?"))")
        } else {
            lines.append("FCM:                 not configured")
        }
        return lines.joined(separator: "\n")
    }
}
