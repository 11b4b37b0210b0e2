import AssentServerCore

/// The console's settings form over ``TenantSettings/table``: every setting's control, label, effect and value come
/// from its declaration, and a submitted value is read by the setting's own rules (those `assent admin tenant
/// settings` and the server API follow), naming the field's label in a refusal.
enum ConsoleSettingsForm {
    /// The result of reading a submitted form (``read(_:into:)``).
    struct Outcome: Sendable {
        /// The settings with every valid value applied.
        var settings: TenantSettings
        /// Field name → message, for each value that was not valid.
        var errors: [String: String]
    }

    /// Reads every field of `form` into a copy of `settings`. A field missing from the form keeps its value. The
    /// settings are only meant to be stored when ``Outcome/errors`` is empty.
    static func read(_ form: [String: String], into settings: TenantSettings) -> Outcome {
        var outcome = Outcome(settings: settings, errors: [:])
        for setting in TenantSettings.table {
            guard let text = form[setting.name] else { continue }
            do {
                try setting.readText(text, setting.label, &outcome.settings)
            } catch let error as AssentError {
                outcome.errors[setting.name] = error.reason
            } catch {
                outcome.errors[setting.name] = "\(setting.label) is not valid."
            }
        }
        return outcome
    }

    /// The fieldset's element id of `group` (`group-push`, …), for in-page links.
    static func elementID(_ group: TenantSetting.Group) -> String {
        switch group {
        case .actions: "group-actions"
        case .push: "group-push"
        case .qrCodes: "group-qr"
        case .powerAuth: "group-powerauth"
        case .webhooks: "group-webhooks"
        case .limits: "group-limits"
        }
    }
}
