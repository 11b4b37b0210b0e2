import Foundation

/// A console form post's fields (`application/x-www-form-urlencoded`) and the request's cookies, read leniently:
/// a field or cookie that cannot be read is absent.
enum ConsoleForm {
    /// The fields of an URL-encoded body (`+` is a space); the first of a repeated name wins.
    static func fields(_ body: [UInt8]) -> [String: String] {
        guard body.count <= 16_384, let text = String(bytes: body, encoding: .utf8) else { return [:] }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            if fields[name] == nil, let value { fields[name] = value }
        }
        return fields
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
