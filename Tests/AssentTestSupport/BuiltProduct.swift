import Foundation

/// The executables `swift build` made beside the test bundle (`.build/<triple>/debug/NAME`), so tests run the real
/// `assentd` and `assent`.
package enum BuiltProduct {
    /// The path of the built executable `name`; throws, saying how to build it, when there is none.
    package static func path(_ name: String) throws -> String {
        var candidates: [String] = []
        for start in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])] {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                directory = directory.deletingLastPathComponent()
                candidates.append(directory.appendingPathComponent(name).path)
            }
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)").path)
        guard let found = candidates.first(where: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: path)
        }) else { throw TestFailure("no \(name) binary next to the tests; build it first (swift build --product \(name))") }
        return found
    }
}
