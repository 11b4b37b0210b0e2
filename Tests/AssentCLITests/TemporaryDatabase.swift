import Foundation

/// A database path in a fresh temporary directory, removed by ``remove()``.
struct TemporaryDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("assent.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-cli-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
