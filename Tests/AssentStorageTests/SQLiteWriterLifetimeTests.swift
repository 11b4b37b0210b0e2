import AssentServerCore
@testable import AssentStorage
import Foundation
import Testing

/// The writer's thread ends with its store: closed, or released without a close (a test that forgets to close one).
@Suite struct SQLiteWriterLifetimeTests {
    private static func ended(_ queue: SQLiteWriter.Queue) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if queue.hasEnded { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    @Test func `closing a store ends its writer thread after the queued writes`() async throws {
        let store = try SQLiteStore(path: ":memory:")
        let queue = store.writer.queue
        try await store.writer.write { try $0.execute("CREATE TABLE kept (x)") }
        #expect(!queue.hasEnded)
        await store.close()
        #expect(queue.hasEnded, "close returns once the thread has ended")
        await #expect(throws: StoreError.self) { try await store.writer.write { _ in 1 } }
    }

    @Test func `a store released without a close ends its writer thread too`() async throws {
        var store: SQLiteStore? = try SQLiteStore(path: ":memory:")
        let queue = try #require(store).writer.queue
        try await #require(store).writer.write { try $0.execute("CREATE TABLE kept (x)") }
        store = nil
        #expect(await Self.ended(queue))
    }
}
