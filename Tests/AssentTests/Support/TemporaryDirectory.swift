import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("assent-sdk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `name` inside the directory.
    func child(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The permission bits of `path`.
func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
