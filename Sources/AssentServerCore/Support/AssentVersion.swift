/// The version of Assent's programs: `assentd --version` and `assent --version` print it, and the CLI sends it in its
/// `User-Agent`. One definition for both executables (the SDK carries its own, `Assent.version`, kept equal by a test).
package enum AssentVersion {
    /// The current version.
    package static let current = "0.1.0"
}
