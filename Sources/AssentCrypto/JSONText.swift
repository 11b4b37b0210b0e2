internal import Foundation

/// The little JSON the JWT code needs: quoting a string, and reading a top-level object.
enum JSONText {
    /// `value` as a JSON string literal, quotes included (RFC 8259 §7).
    static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Parses `bytes` as a JSON document whose top level is an object; nil otherwise.
    static func object(_ bytes: [UInt8]) -> [String: Any]? {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes)) else { return nil }
        return parsed as? [String: Any]
    }

    /// The value as a number, if it is a JSON number (not a boolean, string or null).
    static func number(_ value: Any?) -> Double? {
        guard let value, !(value is Bool) else { return nil }
        if let number = value as? NSNumber {
            return number.doubleValue
        }
        return nil
    }
}
