import Foundation

/// PEM armour (RFC 7468): the DER bytes between `-----BEGIN <label>-----` and `-----END <label>-----`.
public enum PEM: Sendable {
    /// The DER inside the first block labelled `label` in `text`, or nil when there is none or its body is not base64.
    public static func der(from text: String, label: String) -> [UInt8]? {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        let body = text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        guard !body.isEmpty else { return nil }
        return Base64.decode(String(body))
    }

    /// `der` armoured with `label`, 64 characters a line.
    public static func encode(_ der: [UInt8], label: String) -> String {
        let body = Base64.encode(der)
        var lines: [String] = []
        var index = body.startIndex
        while index < body.endIndex {
            let next = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<next]))
            index = next
        }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }
}
