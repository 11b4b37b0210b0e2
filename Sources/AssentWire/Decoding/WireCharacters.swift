/// Which characters a string from a request may hold. Both stores end a string at NUL (SQLite's text functions, and
/// libpq's C strings; PostgreSQL text cannot hold NUL at all), so `<id>\0junk` would reach the row of `<id>`; and a
/// control or bidirectional-override character in an identifier is only ever an attack on whoever displays or
/// compares it. Every string a request carries is checked against one of these at input, before any store.
package enum WireCharacters: Sendable {
    /// Identifiers, codes, keys, tokens, names: no control character (C0, DEL, C1) and no bidirectional embedding,
    /// override or isolate (U+202A–U+202E, U+2066–U+2069). The default.
    case identifier
    /// Free text (user agents, PEM keys, JSON documents): printable Unicode and line breaks, but never NUL.
    case text

    /// Whether every character of `value` is allowed.
    package func allows(_ value: String) -> Bool {
        switch self {
        case .identifier:
            return !value.unicodeScalars.contains { scalar in
                let v = scalar.value
                return v < 0x20 || (0x7f...0x9f).contains(v) || (0x202a...0x202e).contains(v) || (0x2066...0x2069).contains(v)
            }
        case .text:
            return !value.utf8.contains(0)
        }
    }
}
