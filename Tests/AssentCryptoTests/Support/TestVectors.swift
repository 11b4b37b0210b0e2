import Foundation

/// Locates and decodes the known-answer vector files under `Tests/Vectors/`.
enum TestVectors {
    /// `Tests/Vectors/<relativePath>`, found by walking up from this source file to the `Tests` directory.
    static func url(_ relativePath: String, filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.lastPathComponent != "Tests" {
            let parent = directory.deletingLastPathComponent()
            guard parent.path != directory.path else {
                throw VectorError.testsDirectoryNotFound(filePath)
            }
            directory = parent
        }
        return directory.appendingPathComponent("Vectors").appendingPathComponent(relativePath)
    }

    /// Decodes `Tests/Vectors/wycheproof/<name>`.
    static func wycheproof<Group: Decodable>(_ name: String, groups: Group.Type) throws -> WycheproofFile<Group> {
        let data = try Data(contentsOf: url("wycheproof/" + name))
        return try JSONDecoder().decode(WycheproofFile<Group>.self, from: data)
    }

    enum VectorError: Error {
        case testsDirectoryNotFound(String)
    }
}

/// The envelope shared by all Wycheproof files.
struct WycheproofFile<Group: Decodable>: Decodable {
    let algorithm: String
    let numberOfTests: Int
    let testGroups: [Group]
}

/// Wycheproof's verdict on one test case.
enum WycheproofResult: String, Decodable {
    /// Must be accepted.
    case valid
    /// Must be rejected.
    case invalid
    /// May go either way; each test documents what Assent does and why.
    case acceptable
}

/// Tallies how many cases of each verdict a test ran, so a loader that reads nothing cannot pass.
struct CaseCounter {
    var valid = 0
    var invalid = 0
    var acceptable = 0
    var total: Int { valid + invalid + acceptable }

    mutating func count(_ result: WycheproofResult) {
        switch result {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .acceptable: acceptable += 1
        }
    }
}

extension Array where Element == UInt8 {
    /// Decodes a hex string (as Wycheproof writes byte strings); traps on malformed hex, which is a broken vector file.
    init(hex: String) {
        let digits = Array(hex.utf8)
        precondition(digits.count % 2 == 0, "odd-length hex: \(hex)")
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: preconditionFailure("bad hex digit in \(hex)")
            }
        }
        self = stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }
}
