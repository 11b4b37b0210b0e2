import AssentTestSupport
import Foundation

/// Reads QR codes the way a phone would: from pixels, with zbar (`zbarimg`), and SVG rendered by librsvg first.
enum QRReader {
    /// The payload of the single QR code in a PNG file, exactly as zbar decodes it.
    static func decode(png: [UInt8]) throws -> String {
        let directory = try TemporaryDirectory()
        let file = directory.file("code.png")
        try Data(png).write(to: URL(fileURLWithPath: file))
        let result = try ExternalTool.zbarimg.run(["-q", "--raw", "-Sdisable", "-Sqrcode.enable", file])
        guard result.status == 0 else {
            throw ExternalTool.Failure("zbarimg found no QR code (exit \(result.status)): \(result.stderr)")
        }
        // --raw prints each symbol's payload followed by one newline.
        var text = result.text
        guard text.hasSuffix("\n") else { throw ExternalTool.Failure("zbarimg output does not end in a newline: \(text)") }
        text.removeLast()
        return text
    }

    /// The payload of the single QR code in an SVG document, rendered to PNG by `rsvg-convert` at its own size.
    static func decode(svg: String) throws -> String {
        let rendered = try ExternalTool.rsvgConvert.run(["--format=png"], stdin: Array(svg.utf8))
        guard rendered.status == 0, !rendered.stdout.isEmpty else {
            throw ExternalTool.Failure("rsvg-convert failed (exit \(rendered.status)): \(rendered.stderr)")
        }
        return try decode(png: rendered.stdout)
    }
}
