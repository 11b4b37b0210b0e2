import AssentHTTP
import AssentServer
import Foundation

// assentd: the Assent server. Configuration from ASSENT_* variables and flags; see `assentd --help`.

func fail(_ message: String, code: Int32 = 2) -> Never {
    Logger.flush()
    FileHandle.standardError.write(Data("assentd: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    var help = "usage: assentd [options]\n\nEvery option can also be set by its environment variable; flags win.\n\n"
    for option in ServerConfiguration.options {
        help += "  \(option.flag.padding(toLength: 30, withPad: " ", startingAt: 0)) \(option.env.padding(toLength: 27, withPad: " ", startingAt: 0)) \(option.help)\n"
    }
    print(help, terminator: "")
    exit(0)
}

let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration.parse(arguments: arguments, environment: ProcessInfo.processInfo.environment)
} catch {
    fail("\(error)")
}

let levels: [String: Logger.Level] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
let logger = Logger(minimumLevel: levels[configuration.logLevel] ?? .info)
let application: AssentApplication
let started: AssentApplication.Started
do {
    application = try AssentApplication(configuration: configuration, logger: logger)
    started = try await application.start()
} catch {
    fail("cannot start: \(error)", code: 1)
}

if let tenant = started.developmentTenant {
    // Shown once, on the operator's terminal only; logs never carry secrets.
    let notice = """
        Created a development tenant (the database was empty). Keep the secret key: it is shown only now.
          tenant ID:  \(tenant.tenant.id)
          secret key: \(tenant.secretKey)
          base URL:   \(started.publicURL)/v1
          Sign in with QR:  \(started.publicURL)/web/qr-sign-in.html?tenant=\(tenant.tenant.id)

        """
    FileHandle.standardOutput.write(Data(notice.utf8))
}
FileHandle.standardOutput.write(Data(
    """
    assentd is listening on \(started.publicURL) (database \(configuration.sqlitePath)); Ctrl-C stops it.
    Demo pages: \(started.publicURL)/web/ (Sign in with QR: /web/qr-sign-in.html?tenant=TENANT_ID; \
    Approve with push: the url a track answers, /challenge?token=TOKEN)

    """.utf8))

// Wait for SIGINT or SIGTERM on a thread of its own (never block the concurrency pool), then shut down gracefully.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let stopRequested = DispatchSemaphore(value: 0)
let signalSources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { stopRequested.signal() }
    source.resume()
    return source
}
await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    Thread {
        stopRequested.wait()
        continuation.resume()
    }.start()
}
logger.log(.info, "stopping", [:])
await application.shutdown()
signalSources.forEach { $0.cancel() }
Logger.flush()
exit(0)
