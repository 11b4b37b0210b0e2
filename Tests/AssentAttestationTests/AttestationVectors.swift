import AssentCrypto
import Foundation

/// The attestation vectors under `Tests/Vectors/attestation/` (see its README for where each came from).
enum AttestationVectors {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/attestation")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// A JSON object file (whole-line `//` comments, as Google's samples have, are dropped first).
    static func json(_ path: String) throws -> [String: Any] {
        let lines = try text(path).split(separator: "\n", omittingEmptySubsequences: false)
        let data = Data(lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n").utf8)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw VectorError("\(path) is not a JSON object")
        }
        return object
    }

    /// The bytes of a base64 member.
    static func bytes(_ object: [String: Any], _ key: String) throws -> [UInt8] {
        guard let text = object[key] as? String, let bytes = Base64.decode(text) else { throw VectorError("no base64 \(key)") }
        return bytes
    }

    struct VectorError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension Array where Element == UInt8 {
    /// A copy with byte `index` flipped.
    func flipping(_ index: Int) -> [UInt8] {
        var copy = self
        copy[index] ^= 0x01
        return copy
    }
}
