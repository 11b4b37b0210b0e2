import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The user's PowerAuth password (PIN) for a device command: `--password`, else `ASSENT_DEVICE_PASSWORD`, else asked
/// on the terminal without echo, else one line of standard input (for scripts).
enum DevicePassword {
    /// `--password`, which the activation, biometry and sign commands take.
    static let option = Option.optional(
        "--password", "PIN",
        "the activation's password or PIN (prefer the environment variable or the prompt: flags show in ps)",
        environment: "ASSENT_DEVICE_PASSWORD")

    /// The password, asking for it when it was not given.
    static func read(_ invocation: Invocation, prompt: String = "Password: ") throws -> String {
        if invocation.options.isGiven("--password") {
            Output.warning("--password is visible to other users of this machine (ps, /proc); prefer ASSENT_DEVICE_PASSWORD")
        }
        if let given = invocation.options.string("--password") { return given }
        if isatty(STDIN_FILENO) == 1, let typed = getpass(prompt) {
            let text = String(cString: typed)
            if !text.isEmpty { return text }
        } else if let line = Swift.readLine(strippingNewline: true), !line.isEmpty {
            return line
        }
        throw CLIError.usage("a password is required: pass --password, set ASSENT_DEVICE_PASSWORD, or type it when asked")
    }
}
