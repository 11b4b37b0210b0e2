// assent-openapi: writes openapi/assent.json from the endpoint catalogue and the wire types' tables (a tool for
// Assent's own development, not a product). After changing a route or a wire type, run it and commit the document:
//
//     swift run assent-openapi            # rewrite openapi/assent.json
//     swift run assent-openapi --check    # exit 1 when the committed file differs from what it would write
//
// `--output PATH` names another file. OpenAPIDocumentTests compares the document's paths with the catalogue;
// Tests/e2e/test_openapi.py validates it, fuzzes a live server with it and runs `--check`.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
var output = root.appendingPathComponent("openapi/assent.json")
if let index = arguments.firstIndex(of: "--output"), index + 1 < arguments.count {
    output = URL(fileURLWithPath: arguments[index + 1])
}
let unknown = arguments.enumerated().filter { index, argument in
    argument != "--check" && argument != "--output" && (index == 0 || arguments[index - 1] != "--output")
}
guard unknown.isEmpty else {
    FileHandle.standardError.write(Data("usage: assent-openapi [--check] [--output PATH]\n".utf8))
    exit(2)
}

do {
    let text = try OpenAPIDocument.text()
    if check {
        let committed = try? String(contentsOf: output, encoding: .utf8)
        guard committed == text else {
            print("\(output.path) is not what assent-openapi writes; run `swift run assent-openapi` and commit it.")
            exit(1)
        }
    } else {
        try Data(text.utf8).write(to: output)
        print("wrote \(output.path): \(OpenAPIDocument.operations.count) operations")
    }
} catch {
    FileHandle.standardError.write(Data("assent-openapi: \(error)\n".utf8))
    exit(1)
}
