import AssentCrypto
import Foundation

/// Reads `Tests/Vectors/powerauth/<name>.json`: `{"data": [{"input": {...}, "output": {...}}]}`, every value a string.
enum PowerAuthVectors {
    struct Case: Decodable {
        let input: [String: String]
        let output: [String: String]

        /// The Base64-decoded input field; traps on a missing or malformed field, which is a broken vector file.
        func bytes(_ name: String) -> [UInt8] {
            guard let text = input[name] ?? output[name], let bytes = Base64.decode(text) else {
                preconditionFailure("vector field \(name) missing or not base64")
            }
            return bytes
        }

        /// A string field of the input or output.
        func text(_ name: String) -> String {
            guard let text = input[name] ?? output[name] else { preconditionFailure("vector field \(name) missing") }
            return text
        }
    }

    private struct File: Decodable {
        let data: [Case]
    }

    static func cases(_ name: String) throws -> [Case] {
        let data = try Data(contentsOf: TestVectors.url("powerauth/\(name).json"))
        return try JSONDecoder().decode(File.self, from: data).data
    }
}
