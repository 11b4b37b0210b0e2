import AssentWire
import Foundation
import Testing

/// Golden JSON files under `Tests/AssentWireTests/Fixtures/`: each is what the wire carries for one model. A test
/// decodes the file, checks the fields that matter, encodes the value again and compares the result with the file as
/// parsed JSON (key order and whitespace do not matter; types, values, and which keys are present do).
enum Golden {
    /// `Fixtures/<name>.json`, next to this target's sources.
    static func url(_ name: String, filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // AssentWireTests
            .appendingPathComponent("Fixtures").appendingPathComponent(name + ".json")
    }

    /// Decodes `Fixtures/<name>.json` (by default named after `T`) as `T`, and expects the value to encode back to
    /// the same JSON.
    static func roundTrip<T: Codable>(
        _ type: T.Type, _ name: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> T {
        let fixture = try Data(contentsOf: url(name ?? String(describing: T.self)))
        let value = try JSONDecoder().decode(T.self, from: fixture)
        let encoded = try JSONEncoder().encode(value)
        let expected = try parse(fixture), actual = try parse(encoded)
        #expect(actual == expected, "\(String(decoding: encoded, as: UTF8.self))", sourceLocation: sourceLocation)
        return value
    }

    /// JSON text as a value compared independently of key order (booleans stay distinct from numbers).
    static func parse(_ data: Data) throws -> JSONValue {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard let value = JSONValue(foundation: object) else { throw NotJSON() }
        return value
    }

    struct NotJSON: Error {}
}
