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

    @Test func `a directory that cannot be created says why, never a bare Foundation code`() throws {
        // Issue 22 §3.6: an unusable --database answered "a file operation failed (code 512)".
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("assent-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            try OwnerOnlyFiles.createDirectory(file + "/data")
            Issue.record("created a directory under a regular file")
        } catch {
            let text = ErrorText.describe(error)
            #expect(text == "\(file)/data: Not a directory", "\(text)")
            #expect(!text.contains("code"))
        }
        let underlying = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue, userInfo: [
            NSFilePathErrorKey: "/x", NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)),
        ])
        #expect(ErrorText.describe(underlying) == "/x: Permission denied")
    }

    @Test func `a store error is its reason, without its code or source line`() {
        let text = ErrorText.describe(StoreError(.openFailed, "cannot use /x as the SQLite database"))
        #expect(text == "cannot use /x as the SQLite database")
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
