import Foundation
import AssentSync
import Synchronization

/// A throwaway PostgreSQL 15 for this test process: `initdb` and `pg_ctl` on a temporary directory and a free port
/// (as the `postgres` user when running as root, since initdb refuses root), started on first use and stopped when
/// the process exits. Each test gets a fresh database copied from a migrated template (`CREATE DATABASE … TEMPLATE`).
/// Missing binaries fail the test with a message saying what to install; nothing is skipped. It speaks SQL only
/// through the `execute` and `migrate` closures its first caller gives, so this target links no database driver.
package final class PostgresTestServer: Sendable {
    /// Runs one SQL statement on the database at a URL.
    package typealias Execute = @Sendable (_ url: String, _ statement: String) throws -> Void
    /// Applies Assent's schema to the (empty) database at a URL.
    package typealias Migrate = @Sendable (_ url: String) throws -> Void

    static let binaries = "/usr/lib/postgresql/15/bin"
    static let template = "assent_template"

    /// The server's directory (data, socket, logs).
    package let directory: String
    /// Its loopback port.
    package let port: Int
    private let counter = Atomic<Int>(0)
    private let execute: Execute

    private static let shared = AssentLock<Task<PostgresTestServer, any Error>?>(nil)
    private static let started = AssentLock<PostgresTestServer?>(nil)

    /// The process's server, started on first call (callers meanwhile wait without holding a thread); `execute` and
    /// `migrate` are those of the first call.
    package static func start(execute: @escaping Execute, migrate: @escaping Migrate) async throws -> PostgresTestServer {
        let task = shared.withLock { current in
            if let current { return current }
            let task = Task {
                let server = try await offPool { try PostgresTestServer(execute: execute, migrate: migrate) }
                started.withLock { $0 = server }
                atexit { PostgresTestServer.stopShared() }
                return server
            }
            current = task
            return task
        }
        return try await task.value
    }

    private static func stopShared() {
        guard let server = started.withLock({ $0 }) else { return }
        try? server.tool("pg_ctl", "-D", server.directory + "/data", "-m", "immediate", "-w", "stop")
        try? FileManager.default.removeItem(atPath: server.directory)
    }

    private init(execute: @escaping Execute, migrate: @escaping Migrate) throws {
        self.execute = execute
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else {
            throw TestFailure("""
                PostgreSQL 15 is not installed (\(Self.binaries)/initdb is missing): the store tests run on PostgreSQL \
                too. Install it with `apt-get install postgresql-15` (`make test` does).
                """)
        }
        directory = NSTemporaryDirectory() + "assent-pg-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        port = try Self.freePort()
        try tool("initdb", "-D", directory + "/data", "-A", "trust", "-U", "postgres")
        try tool("pg_ctl", "-D", directory + "/data", "-l", directory + "/pg.log", "-w", "-o",
                 "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=500", "start")
        try execute(url(database: "postgres"), "CREATE DATABASE \(Self.template)")
        try migrate(url(database: Self.template))
    }

    /// The URL of `database` on this server.
    package func url(database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// A new database with the schema already applied (or, when not `migrated`, an empty one).
    package func freshDatabase(migrated: Bool = true) async throws -> String {
        let name = "assent_test_\(counter.add(1, ordering: .relaxed).newValue)"
        let admin = url(database: "postgres")
        let execute = self.execute
        try await offPool { try execute(admin, "CREATE DATABASE \(name)" + (migrated ? " TEMPLATE \(Self.template)" : "")) }
        return url(database: name)
    }

    /// Runs a PostgreSQL tool to completion (posix_spawn and waitpid: no run loop, no pipe the server could
    /// inherit), its output going to `tools.log` in the server's directory.
    private func tool(_ name: String, _ arguments: String...) throws {
        let argv = (getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [Self.binaries + "/" + name] + arguments
        let log = directory + "/tools.log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pid = pid_t()
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw TestFailure("cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw TestFailure("\(name) failed (status \(status)): \(output.suffix(2000))")
        }
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
