import AssentCrypto

/// A benchmark workload: a fixed sequence of HTTP steps (one flow) repeated in a
/// closed loop on each connection.
///
/// One value is made per connection, on that connection's thread, so it may keep
/// per-connection state (counters, tokens). To add a scenario, add one file with a
/// type conforming to this protocol and list the type in ``ScenarioCatalog/all``.
protocol Scenario: Sendable {
    /// The name used with `--scenario`.
    static var name: String { get }
    /// One line for `--list`.
    static var summary: String { get }
    /// Step names, in the order the flow runs them; ``FlowContext/perform(_:_:expecting:_:)``
    /// takes an index into this list. A single-step scenario reports one row.
    static var steps: [String] { get }
    /// Whether the scenario calls the client API as a device, which names its tenant (`--tenant`).
    static var requiresTenant: Bool { get }

    init(settings: ScenarioSettings)

    /// Runs once per connection before the warm-up (e.g. fetch a token). A failure
    /// here aborts the whole run with its message.
    mutating func prepare(_ connection: HTTPConnection) throws(BenchError)

    /// Runs one complete flow through `flow`, which times and records each step.
    mutating func runFlow(_ flow: FlowContext) throws(BenchError)
}

extension Scenario {
    static var requiresTenant: Bool { false }

    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {}
}

/// What every scenario value is told about its connection.
struct ScenarioSettings: Sendable {
    /// 0-based index of the connection (and thread) running this value.
    var connection: Int
    /// `Basic base64(secret + ":")`. Never print it.
    var secretAuthorization: String
    /// How many distinct users a connection cycles through.
    var usersPerConnection: Int
    /// The tenant ID (`--tenant`); set whenever a scenario with ``Scenario/requiresTenant`` runs.
    var tenantID: String? = nil
    /// How many connections the level runs (each owns a slice of the seeded users).
    var connections = 1
    /// `--seeded-users N`: sign as users `assent admin seed` made instead of enrolling a device per connection.
    var seededUsers: Int? = nil
    /// The seed those users' device keys derive from (`--seed`).
    var seed = SeededDevice.defaultSeed
}
