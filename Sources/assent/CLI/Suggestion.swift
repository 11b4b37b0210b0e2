/// "Did you mean …?" for a mistyped command or option: the known name closest to what was typed, when one is close
/// enough to be the likely intent (edit distance, with a swap of two neighbouring letters counting as one edit).
enum Suggestion {
    /// The candidate nearest `typed`, or nil when none is within a third of its length (at least one edit) and no
    /// candidate starts with it. Ties go to the first candidate.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        guard !word.isEmpty else { return nil }
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        if let best { return best.name }
        // A prefix long enough to mean something (`--ten` for `--tenant`), when it names exactly one candidate.
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        return typed.count >= 3 && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// `" (did you mean 'NAME'?)"`, or an empty string without a suggestion.
    static func hint(for typed: String, among candidates: [String], quoted: Bool) -> String {
        guard let name = closest(to: typed, among: candidates) else { return "" }
        return quoted ? "; did you mean '\(name)'?" : "; did you mean \(name)?"
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
