import AssentCrypto
import AssentServerCore
import Foundation

/// The user part of an HTTP Basic `Authorization` header, decoded leniently: either base64 alphabet, padding optional,
/// the `:password` part optional (clients differ; see the wire reference §1).
package enum BasicCredentials {
    package static func user(from header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Base64.decode(String(parts[1].trimmingSpaces)),
              let text = String(bytes: decoded, encoding: .utf8)
        else { return nil }
        let user = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return user.isEmpty ? nil : user
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (cheaper than Foundation's trimming on every request).
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
