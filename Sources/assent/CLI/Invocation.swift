/// Everything a leaf command gets: its options (with their environment fallbacks) and where to print.
struct Invocation: Sendable {
    /// The parsed options.
    let options: ParsedOptions
    /// Where results go.
    let output: Output
}
