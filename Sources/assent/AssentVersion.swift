/// The version `assent --version` prints and the CLI sends in its `User-Agent`.
enum AssentVersion {
    /// The current version.
    static let current = "0.1.0"
}
