/// Escaping for the HTML and XML Assent writes by hand (beside the log's JSON and the metrics' Prometheus text): the
/// console's pages and the QR code's SVG both escape every value they did not write themselves with ``escape(_:)``.
package enum MarkupText {
    /// `text` safe in element content and in quoted attributes of HTML and XML: `&`, `<`, `>`, `"` and `'` become
    /// references (`&#39;` for `'`, which HTML 4 lacks `&apos;` for), and the characters XML 1.0 forbids — C0 controls
    /// other than tab, line feed and carriage return, U+FFFE and U+FFFF — become U+FFFD, so an SVG stays well-formed.
    ///
    /// It goes scalar by scalar, not `Character` by `Character`: a quote followed by a combining mark is one
    /// `Character` that is not `"`, and would pass unescaped.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
