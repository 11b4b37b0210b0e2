import AssentServerCore
import AssentWire
import Foundation

/// Reads action states from the command line: `BLOCK`, `block` and `challenge-required` are all understood
/// (``TenantSettingRules/state(_:_:)``, the rule the admin console follows too).
enum ActionStateName {
    /// The allowed spellings, for messages.
    static let allowed = TenantSettingRules.allowedStates

    /// The state named by `text`, or a usage error naming `option` and the allowed values.
    static func parse(_ text: String, option: String) throws -> ActionState {
        do {
            return try TenantSettingRules.state(text, option)
        } catch let error as AssentError {
            throw CLIError.usage(error.reason)
        }
    }
}
