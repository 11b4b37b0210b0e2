/// A route spelled `"METHOD /path"` (``Endpoint``, ``PageRoute``): its parts, and its path with values filled in.
struct RouteTemplate {
    let text: String

    init(_ text: String) { self.text = text }

    private var space: String.Index { text.firstIndex(of: " ")! }

    var method: String { String(text[..<space]) }

    var path: String { String(text[text.index(after: space)...]) }

    /// The path with its `{name}` segments replaced by `values`, in order, as given (the caller percent-encodes them).
    func path(_ values: [String]) -> String {
        var remaining = values[...]
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return segment }
            precondition(!remaining.isEmpty, "\(text) needs a value for \(segment)")
            return Substring(remaining.removeFirst())
        }
        precondition(remaining.isEmpty, "\(text) has fewer parameters than the \(values.count) given")
        return segments.joined(separator: "/")
    }
}
