import AssentCrypto
import Foundation

/// Everything `assent-bench` is told, from flags and `ASSENT_BENCH_*` variables
/// (flags win), validated before anything connects.
struct BenchConfiguration: Sendable {
    enum Command: Sendable { case run, help, list, hmacBaseline }

    var command = Command.run
    /// `http://HOST:PORT[/prefix]`; scenario paths (`/v1/...`) are appended.
    var url: String?
    /// The tenant's secret key. Never print it.
    var secret: String?
    /// The tenant ID, for scenarios that act as a device (`push-flow`). Not a secret.
    var tenant: String?
    var scenarios = ["track"]
    var concurrencies = [1]
    var durationSeconds = 20.0
    var warmupSeconds = 2.0
    var timeoutSeconds = 10.0
    var usersPerConnection = 1000
    /// `--seeded-users N`: push-flow and qr-flow sign as users `assent admin seed` made.
    var seededUsers: Int?
    /// The seed of those users (`--seed`, default ``SeededDevice/defaultSeed``).
    var seed = SeededDevice.defaultSeed
    var json = false

    static let maxConcurrency = 4096

    static let usage = """
        Usage: assent-bench --url http://127.0.0.1:PORT --secret SK [options]

        Measures assentd over real HTTP/1.1 keep-alive connections, one OS thread per connection.

        Options:
          --url URL[,URL...]   server base URL, plain http (env ASSENT_BENCH_URL); several instances on one
                               database: connections are spread over them round robin
          --secret SK          tenant secret key (env ASSENT_BENCH_SECRET; prefer the variable:
                               arguments are visible to other users in ps)
          --tenant ID          tenant ID, needed by push-flow (env ASSENT_BENCH_TENANT)
          --scenario LIST      comma-separated scenarios (default track); see --list
          --concurrency LIST   comma-separated connection counts, run in turn (default 1)
          --duration SECONDS   measured time per level (default 20)
          --warmup SECONDS     unrecorded warm-up per level (default 2)
          --timeout SECONDS    per-request socket timeout (default 10)
          --users N            distinct users per connection (default 1000)
          --seeded-users N     push-flow and qr-flow sign as the N users `assent admin seed` made in the
                               tenant (qr-flow needs them seeded with --qr) instead of enrolling a device
                               per connection; each connection draws at random from its own slice
                               (env ASSENT_BENCH_SEEDED_USERS)
          --seed S             the seed they were made with (default "assent-seed"; env ASSENT_BENCH_SEED)
          --json               one JSON object per line instead of a Markdown table
          --list               list scenarios and exit
          --hmac-baseline      measure in process the HMAC cost of a PowerAuth look-ahead (for
                               signature-verify) for --duration seconds per figure, and exit
          -h, --help           this text

        Exit status: 0 all requests succeeded; 1 some measured requests failed;
        2 bad usage, or the server unreachable or failing scenario setup.
        """

    static func parse(_ arguments: [String], environment: [String: String]) throws(BenchError) -> BenchConfiguration {
        var configuration = BenchConfiguration()
        configuration.url = environment["ASSENT_BENCH_URL"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.secret = environment["ASSENT_BENCH_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.tenant = environment["ASSENT_BENCH_TENANT"].flatMap { $0.isEmpty ? nil : $0 }
        if let seeded = environment["ASSENT_BENCH_SEEDED_USERS"], !seeded.isEmpty {
            configuration.seededUsers = try seededUsers(seeded)
        }
        if let seed = environment["ASSENT_BENCH_SEED"], !seed.isEmpty { configuration.seed = seed }

        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(BenchError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw .usage("\(name) needs a value") }
                return next
            }
            switch name {
            case "-h", "--help": configuration.command = .help
            case "--list": configuration.command = .list
            case "--hmac-baseline": configuration.command = .hmacBaseline
            case "--json": configuration.json = true
            case "--url": configuration.url = try value()
            case "--secret": configuration.secret = try value()
            case "--tenant": configuration.tenant = try value()
            case "--scenario", "--scenarios": configuration.scenarios = try list(try value(), option: name)
            case "--concurrency":
                configuration.concurrencies = try list(try value(), option: name).map { (text) throws(BenchError) in
                    guard let number = Int(text), (1...maxConcurrency).contains(number) else {
                        throw .usage("--concurrency takes whole numbers from 1 to \(maxConcurrency), got '\(text)'")
                    }
                    return number
                }
            case "--duration": configuration.durationSeconds = try seconds(try value(), option: name, allowZero: false)
            case "--warmup": configuration.warmupSeconds = try seconds(try value(), option: name, allowZero: true)
            case "--timeout": configuration.timeoutSeconds = try seconds(try value(), option: name, allowZero: false)
            case "--users":
                let text = try value()
                guard let number = Int(text), number > 0 else { throw .usage("--users takes a positive whole number") }
                configuration.usersPerConnection = number
            case "--seeded-users": configuration.seededUsers = try seededUsers(try value())
            case "--seed":
                let seed = try value()
                guard !seed.isEmpty else { throw .usage("--seed must not be empty") }
                configuration.seed = seed
            default:
                // Never echo a value: it could be the secret.
                throw .usage(name.hasPrefix("-") ? "unknown option \(name)" : "unexpected argument (options start with --)")
            }
        }
        if configuration.command == .run { try configuration.validate() }
        return configuration
    }

    func validate() throws(BenchError) {
        guard url != nil else { throw .usage("--url is required (or set ASSENT_BENCH_URL)") }
        guard let secret, !secret.isEmpty else { throw .usage("--secret is required (or set ASSENT_BENCH_SECRET)") }
        for name in scenarios where ScenarioCatalog.named(name) == nil {
            throw .usage("unknown scenario '\(name)'; known: \(ScenarioCatalog.names.joined(separator: ", "))")
        }
        if tenant?.isEmpty ?? true, let name = scenarios.first(where: { ScenarioCatalog.named($0)?.requiresTenant == true }) {
            throw .usage("scenario '\(name)' needs --tenant (or ASSENT_BENCH_TENANT): the tenant ID devices send")
        }
        if let seededUsers, let most = concurrencies.max(), seededUsers < most {
            throw .usage("--seeded-users \(seededUsers) is fewer than \(most) connections: each needs a user of its own")
        }
    }

    private static func seededUsers(_ text: String) throws(BenchError) -> Int {
        guard let number = Int(text), number > 0 else { throw .usage("--seeded-users takes a positive whole number") }
        return number
    }

    private static func list(_ text: String, option: String) throws(BenchError) -> [String] {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw .usage("\(option) needs at least one value") }
        return items
    }

    private static func seconds(_ text: String, option: String, allowZero: Bool) throws(BenchError) -> Double {
        guard let value = Double(text), value.isFinite, allowZero ? value >= 0 : value > 0, value <= 86_400 else {
            throw .usage("\(option) takes seconds, \(allowZero ? "0 or more" : "more than 0"), got '\(text)'")
        }
        return value
    }
}
