import Foundation
import Glibc

/// `assent-bench`: load generator for assentd's server API over loopback HTTP.
@main
enum AssentBench {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        let configuration: BenchConfiguration
        do {
            configuration = try BenchConfiguration.parse(
                Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        } catch {
            fail(error.reason + "\n\n" + BenchConfiguration.usage, status: 2)
        }
        switch configuration.command {
        case .help:
            print(BenchConfiguration.usage)
            return
        case .list:
            for scenario in ScenarioCatalog.all {
                print("\(scenario.name)\t\(scenario.steps.count == 1 ? "" : "[\(scenario.steps.joined(separator: " → "))] ")\(scenario.summary)")
            }
            return
        case .hmacBaseline:
            print(HMACBaseline.run(seconds: min(configuration.durationSeconds, 5)))
            return
        case .run:
            break
        }
        exit(run(configuration))
    }

    /// Runs every (scenario, concurrency) level in turn; returns the exit status.
    private static func run(_ configuration: BenchConfiguration) -> Int32 {
        // One URL, or a comma-separated list of instances sharing one database: connections are spread over them
        // round robin, as a load balancer would.
        var endpoints: [Endpoint] = []
        do {
            for url in (configuration.url ?? "").split(separator: ",") {
                endpoints.append(try Endpoint.resolve(url.trimmingCharacters(in: .whitespaces)))
            }
            if endpoints.isEmpty { endpoints.append(try Endpoint.resolve("")) }
        } catch {
            fail(error.reason, status: 2)
        }
        for endpoint in endpoints {
            do {
                // Fail fast and clearly when nothing listens, before printing any results.
                let probe = HTTPConnection(endpoint: endpoint, timeoutSeconds: configuration.timeoutSeconds)
                try probe.connect()
                probe.close()
            } catch {
                fail("\(error.reason) (is the server running?)", status: 2)
            }
        }
        let secret = configuration.secret ?? ""
        let runner = LoadRunner(
            endpoints: endpoints,
            secretAuthorization: "Basic " + Data((secret + ":").utf8).base64EncodedString(),
            usersPerConnection: configuration.usersPerConnection,
            tenantID: configuration.tenant,
            seededUsers: configuration.seededUsers,
            seed: configuration.seed,
            timeoutSeconds: configuration.timeoutSeconds,
            warmupSeconds: configuration.warmupSeconds,
            durationSeconds: configuration.durationSeconds)

        var printer = ReportPrinter(json: configuration.json)
        printer.machine(MachineInfo.current(), endpoints: endpoints, configuration: configuration)
        var failedRows = 0
        var levels = 0
        for name in configuration.scenarios {
            guard let scenario = ScenarioCatalog.named(name) else { continue }  // validated already
            for concurrency in configuration.concurrencies {
                progress("\(name) with \(connections(concurrency)): warm-up \(seconds(configuration.warmupSeconds)), measuring \(seconds(configuration.durationSeconds))")
                do {
                    let result = try runner.run(scenario, concurrency: concurrency)
                    printer.level(result)
                    levels += 1
                    if result.errorCount > 0 { failedRows += 1 }
                } catch {
                    printer.finish()
                    fail("\(name) with \(connections(concurrency)): \(error.reason)", status: 2)
                }
            }
        }
        printer.finish()
        if failedRows > 0 {
            progress("\(failedRows) of \(levels) runs had failed requests (see the errors column); their figures are not valid")
            return 1
        }
        return 0
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%g s", value)
    }

    private static func connections(_ count: Int) -> String {
        count == 1 ? "1 connection" : "\(count) connections"
    }

    private static func progress(_ line: String) {
        FileHandle.standardError.write(Data("assent-bench: \(line)\n".utf8))
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("assent-bench: error: \(message)\n".utf8))
        exit(status)
    }
}
