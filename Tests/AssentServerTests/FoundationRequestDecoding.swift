import AssentServer
import AssentWire
import Foundation

/// The test oracle for ``WireRequestDecoding``: ``RequestDecoding`` over Foundation's `JSONSerialization` (what the
/// server used before its own reader), the body parsed into a dictionary once, then the request type's table reading
/// its fields from it. Not in `Sources`: the server and the fuzz targets use the real decoder.
struct FoundationRequestDecoding: RequestDecoding {
    func decode<T: WireDecodable>(_ type: T.Type, json: [UInt8]) throws(WireDecodingError) -> T {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(json), options: [])
        } catch {
            throw .notJSON
        }
        guard let object = parsed as? [String: Any] else { throw .notAnObject }
        return try T(reading: Object(fields: object))
    }

    /// The parsed object, read as ``WireObject`` says.
    private struct Object: WireObject {
        let fields: [String: Any]

        /// The raw value under `field` or its snake_case spelling: nil when absent, `NSNull` when null.
        private func raw(_ field: String) -> Any? {
            fields[field] ?? fields[Self.snakeCase(field)]
        }

        /// The raw value when present and not null.
        private func value(_ field: String) -> Any? {
            guard let value = raw(field), !(value is NSNull) else { return nil }
            return value
        }

        func isNull(_ field: String) -> Bool { raw(field) is NSNull }

        func rawString(_ field: String) throws(WireDecodingError) -> String? {
            guard let value = value(field) else { return nil }
            guard let string = value as? String else { throw .wrongType(field, "a string") }
            return string
        }

        func bool(_ field: String) throws(WireDecodingError) -> Bool? {
            guard let value = value(field) else { return nil }
            guard JSONValue.isBoolean(value), let number = value as? NSNumber else { throw .wrongType(field, "true or false") }
            return number.boolValue
        }

        func integer(_ field: String, range: ClosedRange<Int>) throws(WireDecodingError) -> Int? {
            guard let value = value(field) else { return nil }
            guard !JSONValue.isBoolean(value), let number = value as? NSNumber,
                  let integer = Int(exactly: number.doubleValue), range.contains(integer)
            else { throw .notInRange(field, range) }
            return integer
        }

        func rawStrings(_ field: String) throws(WireDecodingError) -> [String]? {
            guard let value = value(field) else { return nil }
            guard let strings = value as? [String] else { throw .wrongType(field, "an array of strings") }
            return strings
        }

        func object(_ field: String, maxBytes: Int) throws(WireDecodingError) -> [String: JSONValue]? {
            guard let value = value(field) else { return nil }
            guard value is [String: Any], let converted = JSONValue(foundation: value)?.objectValue else {
                throw .wrongType(field, "a JSON object")
            }
            guard let data = try? JSONSerialization.data(withJSONObject: value), data.count <= maxBytes else {
                throw .tooLarge(field, jsonBytes: maxBytes)
            }
            return converted
        }
    }
}
