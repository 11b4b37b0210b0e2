import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()`` or when the last reference
/// goes.
package final class TemporaryDirectory: Sendable {
    /// Its path.
    package let path: String

    /// Creates the directory.
    package init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("assent-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// `name` inside the directory.
    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Removes the directory and everything in it now.
    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The permission bits of `path`.
package func fileMode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
