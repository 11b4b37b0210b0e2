import AssentWire
import Foundation
import Testing

/// ``JSONReader`` against Foundation's `JSONSerialization`: the same values from every golden fixture and from
/// awkward valid JSON, and refusals (with a stable code) where JSON is malformed or ambiguous.
@Suite struct JSONReaderTests {
    /// Every fixture under `Fixtures/`.
    static let fixtures: [String] = {
        let folder = JSONWriterTests.fixture("x").deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func `there are fixtures to read`() {
        #expect(Self.fixtures.count > 30)
    }

    @Test(arguments: fixtures)
    func `every fixture reads as the value Foundation reads`(name: String) throws {
        let bytes = try Data(contentsOf: JSONWriterTests.fixture(name))
        #expect(try JSONReader.value(Array(bytes)) == Golden.parse(bytes))
        let members = try JSONReader.object(Array(bytes))
        #expect(JSONValue.object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })) == (try Golden.parse(bytes)))
    }

    @Test(arguments: [
        #"{}"#, #" {"a" : [ ] , "b":{ }}  "#, "\t{\"a\":\r\n1}\n",
        #"{"s":"\"\\\/\b\f\n\r\t\u0041\u00e9\u65e5\ud83d\ude00"}"#, #"{"s":"é 日本 😀"}"#,
        #"{"n":[0,-0,1,-1,0.5,-0.5,1e3,1E-3,1e+3,12345678901234567890,1.7976931348623157e308,5e-324,0.1]}"#,
        #"{"b":[true,false,null],"deep":[[[[[[[[[[{}]]]]]]]]]]}"#, #"{"":""}"#,
    ])
    func `valid JSON reads as Foundation reads it`(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try JSONReader.value(bytes) == Golden.parse(Data(bytes)), "\(text)")
    }

    @Test(arguments: [
        ("", JSONReadError.Code.truncated), ("{", .truncated), (#"{"a""#, .truncated), (#"{"a":"#, .truncated),
        (#"{"a":"b"#, .truncated), (#"{"a":tr"#, .truncated), (#"{"a":1"#, .truncated), (#"{"a":[1,"#, .truncated),
        (#"{"a":"\u12"#, .truncated), (#"{"a":"\u12"}"#, .badEscape),
        (#"{"a":1,}"#, .unexpectedByte), (#"{"a":[1,]}"#, .unexpectedByte), (#"{,}"#, .unexpectedByte),
        (#"{"a" 1}"#, .unexpectedByte), (#"{'a':1}"#, .unexpectedByte), (#"{"a":nul}"#, .unexpectedByte),
        (#"{"a":True}"#, .unexpectedByte), (#"{a:1}"#, .unexpectedByte), (#"{"a":1 "b":2}"#, .unexpectedByte),
        (#"{"a":NaN}"#, .unexpectedByte), (#"{"a":+1}"#, .unexpectedByte),
        (#"{"a":1}x"#, .trailingData), (#"{"a":1}{}"#, .trailingData), (#"{} ,"#, .trailingData),
        (#"{"a":"\x"}"#, .badEscape), (#"{"a":"\u00zz"}"#, .badEscape), (#"{"a":"\ud800"}"#, .badEscape),
        (#"{"a":"\udc00"}"#, .badEscape), (#"{"a":"\ud800\u0041"}"#, .badEscape), (#"{"a":"\'"}"#, .badEscape),
        ("{\"a\":\"\u{1}\"}", .controlCharacter), ("{\"a\":\"line\nbreak\"}", .controlCharacter),
        (#"{"a":01}"#, .badNumber), (#"{"a":1.}"#, .badNumber), (#"{"a":-}"#, .badNumber), (#"{"a":1e}"#, .badNumber),
        (#"{"a":.5}"#, .unexpectedByte), (#"{"a":-x}"#, .badNumber),
        (#"{"a":1e400}"#, .hugeNumber), (#"{"a":-1e309}"#, .hugeNumber),
        (#"{"a":1,"a":2}"#, .duplicateKey), (#"{"a":{"b":1,"b":1}}"#, .duplicateKey),
        (#"{"a":1,"b":2,"\u0061":3}"#, .duplicateKey),
        (#"[1,2]"#, .notAnObject), (#" [] "#, .notAnObject), (#""text""#, .fragment), (#"42"#, .fragment), (#"null"#, .fragment),
    ])
    func `malformed or ambiguous JSON is refused with its code`(text: String, code: JSONReadError.Code) {
        #expect(throws: JSONReadError.self, "\(text)") { try JSONReader.object(Array(text.utf8)) }
        do {
            _ = try JSONReader.object(Array(text.utf8))
        } catch {
            #expect(error.code == code, "\(text): \(error)")
        }
    }

    @Test func `invalid UTF-8 in a string is refused`() {
        for bytes: [UInt8] in [[0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d], [0x7b, 0x22, 0xc3, 0x22, 0x3a, 0x31, 0x7d],
                               [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]] {
            #expect(throws: JSONReadError(.invalidUTF8, at: bytes[2] == 0xc3 ? 2 : 6)) { try JSONReader.object(bytes) }
        }
    }

    @Test func `nesting deeper than the limit is refused, up to the limit is read`() throws {
        let limit = JSONReader.maxDepth
        let deepest = "{\"a\":" + String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1) + "}"
        #expect(try JSONReader.object(Array(deepest.utf8)).count == 1)
        let tooDeep = "{\"a\":" + String(repeating: "[", count: limit) + String(repeating: "]", count: limit) + "}"
        #expect(throws: JSONReadError.self) { try JSONReader.object(Array(tooDeep.utf8)) }
        // A stack-busting input fails fast rather than recursing a million times.
        let huge = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONReadError(.tooDeep, at: limit)) { try JSONReader.value(Array(huge.utf8)) }
    }

    @Test func `members keep the order sent and many keys are still checked for duplicates`() throws {
        let keys = (0..<40).map { "k\($0)" }
        let text = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(try JSONReader.object(Array(text.utf8)).map(\.key) == keys)
        let twice = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + ",\"k3\":2}"
        #expect(throws: JSONReadError.self) { try JSONReader.object(Array(twice.utf8)) }
    }

    @Test func `a value written by JSONWriter reads back unchanged`() throws {
        let value = JSONValue.object([
            "s": .string(JSONWriterTests.awkward), "n": .array([.number(0.1), .number(-1e300), .number(7)]),
            "o": .object(["x": .null, "y": .bool(true)]),
        ])
        var writer = JSONWriter()
        writer.value(value)
        #expect(try JSONReader.value(writer.bytes) == value)
    }

    @Test func `request fields are found in camelCase or snake_case, compared in place`() throws {
        let fields = try JSONObjectFields(json: Array(#"{"user_authenticator_id":"a","publicKey":"k","n":null}"#.utf8))
        #expect(try fields.rawString("userAuthenticatorId") == "a" && fields.rawString("publicKey") == "k")
        #expect(try fields.rawString("userAuthenticator") == nil && fields.rawString("user") == nil)
        #expect(fields.isNull("n") && !fields.isNull("publicKey"))
        #expect(try fields.rawString("n") == nil)
        for field in ["userAuthenticatorId", "a", "aB", "resetExpiry", "ABC", "x1Y", "é", "déjàVu"] {
            let snake = JSONObjectFields.snakeCase(field)
            #expect(JSONObjectFields.isSnakeCase(snake, of: field) == (snake != field), "\(field)")
            #expect(!JSONObjectFields.isSnakeCase(snake + "x", of: field) && !JSONObjectFields.isSnakeCase(field + "_", of: field))
        }
    }
}
