import AssentServerCore
import Foundation
import Testing

/// Messages `assent` and `assentd` print about Foundation's errors: plain words, no `Error Domain=…` dump and no Swift
/// type or case names; Assent's own errors keep their text.
@Suite struct ErrorTextTests {
    private struct Sample: Decodable { var name: String }

    @Test func `a missing file names the path and says so`() {
        let missing = "/nonexistent/\(UUID().uuidString)"
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: missing))
            Issue.record("read a file that does not exist")
        } catch {
            let text = ErrorText.describe(error)
            #expect(text == "\(missing): no such file", "\(text)")
            #expect(!text.contains("Domain") && !text.contains("Code="))
        }
    }

    @Test func `bad JSON is described without Swift type names`() throws {
        for (json, expected) in [
            ("{", "not valid JSON"),
            ("{}", "the field 'name' is missing at the top level"),
            (#"{"name": 3}"#, "a value of the wrong type at 'name'"),
        ] {
            do {
                _ = try JSONDecoder().decode(Sample.self, from: Data(json.utf8))
                Issue.record("decoded \(json)")
            } catch {
                let text = ErrorText.describe(error)
                #expect(text == expected)
                #expect(!text.contains("CodingKeys") && !text.contains("DecodingError") && !text.contains("Context"))
            }
        }
    }

    @Test func `a network error is described in words`() {
        let refused = NSError(domain: "NSURLErrorDomain", code: -1004, userInfo: [NSLocalizedDescriptionKey: "x"])
        #expect(ErrorText.describe(refused) == "network error: the connection was refused")
    }

    @Test func `assents own errors keep their text`() {
        let error = AssentError(.notFound, "No tenant with id t1.")
        #expect(ErrorText.describe(error) == "not_found: No tenant with id t1.")
    }
}
