import AssentServerCore
import AssentCrypto
import AssentWire

/// The changes `tenant settings` was asked to make: one flag per setting of ``TenantSettings/table`` (its `flag`,
/// read by the setting's own rules, those the console and the server API follow), plus `--remove-action-rule`. All
/// are checked before the database is touched.
struct SettingsChange {
    /// The flags given, in the table's order, each with its values in the order given.
    private var given: [(setting: TenantSetting, texts: [String])] = []
    /// Action codes whose rules `--remove-action-rule` removes (before new rules are applied).
    private var removedRules: [String] = []
    /// The webhook URL given, when `--webhook-url` was (`.some(nil)` removes it), for the URL policy's check.
    private(set) var webhookURL: String??

    /// One CLI option per setting, in the table's order, with the extra `--remove-action-rule` after the rules.
    static var options: [Option] {
        TenantSettings.table.flatMap { setting -> [Option] in
            let help = setting.effect + Self.defaultNote(setting)
            guard setting.isRepeatable else { return [.optional(setting.flag, setting.placeholder, help)] }
            var options: [Option] = [.repeatable(setting.flag, setting.placeholder, help)]
            if setting.name == "actionRules" {
                options.append(.repeatable("--remove-action-rule", "ACTION", "remove the rule for an action code"))
            }
            return options
        }
    }

    /// " (default X)" for a setting whose default says something.
    private static func defaultNote(_ setting: TenantSetting) -> String {
        let value = setting.described(TenantSettings())
        return value == "none" || value.isEmpty ? "" : " (default \(value))"
    }

    /// Reads and checks the options; any invalid value is a usage error and nothing changes.
    init(_ options: ParsedOptions) throws {
        do {
            removedRules = try options.strings("--remove-action-rule").map {
                try TenantSettingRules.actionCode($0, "--remove-action-rule")
            }
            for setting in TenantSettings.table {
                let texts = setting.isRepeatable ? options.strings(setting.flag) : options.string(setting.flag).map { [$0] } ?? []
                if !texts.isEmpty { given.append((setting, texts)) }
            }
            var checked = TenantSettings()
            try apply(to: &checked)
            if given.contains(where: { $0.setting.name == "webhookURL" }) { webhookURL = .some(checked.webhookURL) }
        } catch let error as AssentError {
            throw CLIError.usage(error.reason)
        }
    }

    /// Whether nothing was asked for.
    var isEmpty: Bool { given.isEmpty && removedRules.isEmpty }

    /// Applies the changes: removals first, then each setting's values in the order given (a rule with both states
    /// empty removes it). The values were checked when the change was read, so this throws only if the rules changed.
    func apply(to settings: inout TenantSettings) throws {
        for action in removedRules { settings.actionRules[action] = nil }
        for (setting, texts) in given {
            for text in texts { try setting.readFlag(text, setting.flag, &settings) }
        }
    }

    /// An action code as the server API accepts it in a path (``TenantSettingRules/actionCode(_:_:)``).
    static func actionCode(_ text: String, option: String) throws -> String {
        do {
            return try TenantSettingRules.actionCode(text, option)
        } catch let error as AssentError {
            throw CLIError.usage(error.reason)
        }
    }
}
