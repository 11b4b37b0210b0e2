import AssentLog
import AssentServer
import AssentStorage
import Foundation
import AssentServerCore

// assentd: the Assent server. Configuration from ASSENT_* variables and flags; see `assentd --help`.

// Every file and directory assentd creates (data directory, SQLite database with its -wal/-shm, master key) is for its
// own user only; the creating code also asks for 0700/0600 explicitly, this covers whatever else a library creates.
umask(0o077)

func fail(_ message: String, code: Int32 = 2) -> Never {
    Logger.flush()
    FileHandle.standardError.write(Data("assentd: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments == ["--version"] || arguments == ["version"] {
    print("assentd \(AssentVersion.current)")
    exit(0)
}

// `assentd migrate [options]`: apply the database's pending migrations, then exit.
if arguments.first == "migrate" {
    do {
        let configuration = try ServerConfiguration.parse(
            arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        switch configuration.databaseLocation {
        case .postgres(let url):
            let applied = try PostgresStore.migrate(url: url)
            print(applied.isEmpty ? "the database is up to date" : "applied migrations \(applied.map(String.init).joined(separator: ", "))")
        case .sqlite:
            let masterKey = try configuration.loadMasterKey { FileHandle.standardError.write(Data("assentd: \($0)\n".utf8)) }
            let backup = configuration.preMigrationBackup(masterKey: masterKey) { print("backed up the database before migrating it: \($0)") }
            await (try configuration.databaseLocation.open(connections: 1, preMigration: backup)).close()
            print("the database is up to date")
        }
        exit(0)
    } catch {
        fail("migrate: \(ErrorText.describe(error))", code: 1)
    }
}

// `assentd copy-sqlite --from FILE --to postgres://...`: copy every table into an empty PostgreSQL database.
if arguments.first == "copy-sqlite" {
    var from: String?
    var to: String?
    var index = 1
    while index < arguments.count {
        switch arguments[index] {
        case "--from" where index + 1 < arguments.count: from = arguments[index + 1]; index += 2
        case "--to" where index + 1 < arguments.count: to = arguments[index + 1]; index += 2
        default: fail("usage: assentd copy-sqlite --from FILE.sqlite --to postgres://USER@HOST:PORT/DB")
        }
    }
    guard let from, let to, case .postgres(let url) = DatabaseLocation(to), case .sqlite(let path) = DatabaseLocation(from) else {
        fail("usage: assentd copy-sqlite --from FILE.sqlite --to postgres://USER@HOST:PORT/DB")
    }
    do {
        for (table, rows) in try DatabaseCopy.copy(sqlitePath: path, postgresURL: url) {
            print("\(table): \(rows) rows")
        }
        exit(0)
    } catch {
        fail("copy-sqlite: \(ErrorText.describe(error))", code: 1)
    }
}

// `assentd check-config [options]`: check the flags, master key, database, TLS files and web root, then exit.
if arguments.first == "check-config" {
    let configuration: ServerConfiguration
    do {
        configuration = try ServerConfiguration.parse(
            arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    } catch {
        fail("check-config: \(ErrorText.describe(error))")
    }
    let findings = ConfigurationCheck(configuration: configuration).run()
    for finding in findings {
        print("\(finding.level.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(finding.subject): \(finding.message)")
    }
    let errors = findings.filter { $0.level == .error }.count
    if errors > 0 { fail("check-config: \(errors) problem\(errors == 1 ? "" : "s") found", code: 1) }
    print("the configuration is good")
    exit(0)
}

if arguments.contains("--help") || arguments.contains("-h") {
    var help = """
        usage: assentd [options]              run the server
               assentd --version              print the version and exit
               assentd migrate [options]      apply pending database migrations and exit
               assentd check-config [options] check flags, listen addresses, master key, database, TLS files, web root
               assentd copy-sqlite --from FILE.sqlite --to postgres://...   copy every table into an empty PostgreSQL

        Every option can also be set by its environment variable; flags win.


        """
    // Columns padded, never cut: a longer flag or variable pushes its help to the right.
    func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
    for option in ServerConfiguration.options {
        help += "  \(column(option.flag, 30)) \(column(option.env, 27)) \(option.help)\n"
    }
    print(help, terminator: "")
    exit(0)
}

let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration.parse(arguments: arguments, environment: ProcessInfo.processInfo.environment)
} catch {
    fail(ErrorText.describe(error))
}

let levels: [String: Logger.Level] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
let logger = Logger(minimumLevel: levels[configuration.logLevel] ?? .info)
let application: AssentApplication
let started: AssentApplication.Started
do {
    application = try AssentApplication(configuration: configuration, logger: logger)
    started = try await application.start()
} catch {
    fail("cannot start: \(ErrorText.describe(error))", code: 1)
}

// The demo pages are only mentioned when there are pages to serve (`--web-root`, default ./web).
var isDirectory: ObjCBool = false
let servesPages = FileManager.default.fileExists(atPath: configuration.webRoot, isDirectory: &isDirectory)
    && isDirectory.boolValue

if let tenant = started.developmentTenant {
    // Shown once, on the operator's terminal only; logs never carry secrets.
    var notice = """
        Created a development tenant (the database was empty). Keep the secret key: it is shown only now \
        (lost, it is replaced by: assent admin tenant rotate-secret --tenant \(tenant.tenant.id)).
          tenant ID:  \(tenant.tenant.id)
          secret key: \(tenant.secretKey)
          base URL:   \(started.publicURL)/v1

        """
    if servesPages {
        notice += "  Sign in with QR:  \(started.publicURL)/web/qr-sign-in.html?tenant=\(tenant.tenant.id)\n"
    }
    FileHandle.standardOutput.write(Data((notice + "\n").utf8))
}
FileHandle.standardOutput.write(Data(
    "assentd is listening on \(started.publicURL) (database \(configuration.databaseLocation.redacted)); Ctrl-C stops it.\n"
        .utf8))
if servesPages {
    FileHandle.standardOutput.write(Data(
        """
        Demo pages: \(started.publicURL)/web/ (Sign in with QR: /web/qr-sign-in.html?tenant=TENANT_ID; \
        Approve with push: the url a track answers, /challenge?token=TOKEN)

        """.utf8))
}
if let port = started.metricsPort, let host = configuration.metricsHost {
    let shown = host.contains(":") ? "[\(host)]" : host
    FileHandle.standardOutput.write(Data("Metrics: http://\(shown):\(port)/metrics (this listener serves nothing else)\n".utf8))
}

// The console's address on every start: an operator who never read as far as the README's console section still sees
// where it is (issue 22 §3.2). With --admin-listen it is there only; otherwise on the API listener.
let consoleSignIn = "sign in with a tenant's secret key or a token from `assent admin token create`"
if let port = started.adminPort, let host = configuration.adminHost {
    let shown = host.contains(":") ? "[\(host)]" : host
    let scheme = configuration.tlsCertificateFile == nil ? "http" : "https"
    FileHandle.standardOutput.write(Data(
        "Admin console: \(scheme)://\(shown):\(port)/admin/ (only on this listener; \(consoleSignIn))\n".utf8))
} else {
    FileHandle.standardOutput.write(Data("Admin console: \(started.publicURL)/admin/ (\(consoleSignIn))\n".utf8))
}

// SIGHUP reloads the TLS certificate and key (new handshakes use them; open connections keep theirs).
signal(SIGHUP, SIG_IGN)
let reloadSource = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
reloadSource.setEventHandler { try? application.reloadTLS() }
reloadSource.resume()

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
reloadSource.cancel()
Logger.flush()
exit(0)
