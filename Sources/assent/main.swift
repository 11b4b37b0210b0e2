import Foundation
import AssentServerCore

// assent: the Assent command-line tool. `assent help` lists the command groups.

let root = Command.group("assent", "the Assent command-line tool", [AdminCommands.group, DeviceCommands.group, SignatureCommands.group])
let runner = CommandRunner(root: root, version: AssentVersion.current)
exit(await runner.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
