@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Synchronization
import AssentTestSupport

extension PostgresTestServer {
    /// The process's server, its template migrated with Assent's PostgreSQL migrations.
    static func start() async throws -> PostgresTestServer {
        try await start(
            execute: { url, statement in try PostgresConnection(url: url).execute(statement) },
            migrate: { url in _ = try PostgresStore.migrate(url: url) })
    }
}

/// The stores the generic suites run against.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
}

/// A fresh, empty (migrated) database of one kind, and a way to open more stores on it — several instances.
struct StoreFixture: Sendable {
    let kind: StoreKind
    let directory: TemporaryDirectory
    /// The SQLite path or PostgreSQL URL.
    let location: String
    let store: any ServerStore

    private init(kind: StoreKind, directory: TemporaryDirectory, location: String, store: any ServerStore) {
        self.kind = kind
        self.directory = directory
        self.location = location
        self.store = store
    }

    /// A fresh database of `kind`, opened.
    static func make(_ kind: StoreKind) async throws -> StoreFixture {
        let directory = try TemporaryDirectory()
        let location: String
        switch kind {
        case .sqlite: location = directory.file("data/assent.sqlite")
        case .postgres: location = try await PostgresTestServer.start().freshDatabase()
        }
        let store = try await offPool { try DatabaseLocation(location).open(connections: 8) }
        return StoreFixture(kind: kind, directory: directory, location: location, store: store)
    }

    /// Another store on the same database, as a second `assentd` instance would open it.
    func another() async throws -> any ServerStore {
        let location = self.location
        return try await offPool { try DatabaseLocation(location).open(connections: 8) }
    }
}
