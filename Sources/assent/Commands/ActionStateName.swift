import AssentWire
import Foundation

/// Reads action states from the command line: `BLOCK`, `block` and `challenge-required` are all understood.
enum ActionStateName {
    /// The allowed spellings, for messages.
    static let allowed = ActionState.allCases.map(\.rawValue).joined(separator: ", ")

    /// The state named by `text`, or a usage error naming `option` and the allowed values.
    static func parse(_ text: String, option: String) throws -> ActionState {
        let normalized = text.trimmingCharacters(in: .whitespaces).uppercased().replacingOccurrences(of: "-", with: "_")
        guard let state = ActionState(rawValue: normalized) else {
            throw CLIError.usage("invalid state '\(text)' for \(option); allowed: \(allowed)")
        }
        return state
    }
}
