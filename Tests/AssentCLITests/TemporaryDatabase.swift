import AssentTestSupport

/// A database path in a fresh temporary directory, removed with it.
struct TemporaryDatabase {
    let directory: TemporaryDirectory
    var path: String { directory.file("assent.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    func remove() { directory.remove() }
}
