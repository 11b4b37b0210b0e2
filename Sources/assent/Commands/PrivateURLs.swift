import AssentServerCore
import Foundation

/// `--allow-private-urls` (or `ASSENT_ALLOW_PRIVATE_URLS=1`, which `assentd` reads too) for the commands that set a
/// tenant's URLs: without it, a URL leading to a loopback, private or other non-global address is refused, as the
/// server API refuses it (``OutboundURLPolicy``).
enum PrivateURLs {
    /// The flag.
    static let option = Option.flag(
        "--allow-private-urls",
        "accept URLs that lead to loopback or private addresses (development and tests; assentd needs it too)")

    /// The policy the command's options and the environment ask for.
    static func policy(_ options: ParsedOptions) -> OutboundURLPolicy {
        let environment = ProcessInfo.processInfo.environment["ASSENT_ALLOW_PRIVATE_URLS"]?.lowercased() ?? ""
        return OutboundURLPolicy(
            allowsPrivateAddresses: options.flag(option.name) || ["1", "true", "yes"].contains(environment))
    }
}
