import AssentQRRender
import Testing
import Foundation

@Suite struct QRCodeImageSVGTests {
    @Test(arguments: QRSamples.payloads, QRSamples.corrections)
    func `zbar reads the SVG rendered by librsvg back as exactly the encoded text`(
        text: String, correction: QRCodeMatrix.Correction
    ) throws {
        let matrix = try QRCodeMatrix(text, correction: correction)
        #expect(try QRReader.decode(svg: try QRCodeImage.svg(matrix)) == text)
    }

    @Test(arguments: QRSamples.payloads, QRSamples.corrections)
    func `the path's runs cover exactly the dark modules, offset by the quiet zone`(
        text: String, correction: QRCodeMatrix.Correction
    ) throws {
        let matrix = try QRCodeMatrix(text, correction: correction)
        let quietZone = 3
        let document = try SVGDocument(try QRCodeImage.svg(matrix, quietZone: quietZone))
        let paths = document.all("path")
        try #require(paths.count == 1)
        let side = matrix.size + 2 * quietZone
        let grid = try SVGPathRuns.grid(try #require(paths[0].attributes["d"]), side: side)

        var expected = [Bool](repeating: false, count: side * side)
        for row in 0..<matrix.size {
            for column in 0..<matrix.size {
                expected[(row + quietZone) * side + column + quietZone] = matrix[row, column]
            }
        }
        #expect(grid == expected)
    }

    @Test func `the root carries size, a view box in modules, crisp edges and an accessible name`() throws {
        let matrix = try QRCodeMatrix(QRSamples.typical)
        let document = try SVGDocument(try QRCodeImage.svg(matrix, moduleSize: 5, quietZone: 2, title: "Scan to sign in"))
        let root = try #require(document.elements.first)
        let side = matrix.size + 4
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["width"] == "\(side * 5)")
        #expect(root.attributes["height"] == "\(side * 5)")
        #expect(root.attributes["viewBox"] == "0 0 \(side) \(side)")
        #expect(root.attributes["shape-rendering"] == "crispEdges")
        #expect(root.attributes["role"] == "img")
        #expect(document.elements.map(\.name) == ["svg", "title", "rect", "path"], "title first, one rect, one path")
        #expect(document.all("title").first?.text == "Scan to sign in")
        let background = try #require(document.all("rect").first)
        #expect(background.attributes["width"] == "\(side)" && background.attributes["height"] == "\(side)")
        #expect(background.attributes["fill"] == "#fff")
        #expect(document.all("path").first?.attributes["fill"] == "#000")
    }

    @Test func `without a title the accessible name is "QR code"`() throws {
        let document = try SVGDocument(try QRCodeImage.svg(try QRCodeMatrix(QRSamples.short)))
        #expect(document.all("title").map(\.text) == ["QR code"])
    }

    @Test func `a title with markup characters is escaped and one with control characters stays well-formed`() throws {
        let matrix = try QRCodeMatrix(QRSamples.short)
        let title = "Sign in to \"Acme\" <R&D> it's you?</title><script>alert(1)</script>\u{1}"
        let svg = try QRCodeImage.svg(matrix, title: title)
        let document = try SVGDocument(svg)
        #expect(document.all("script").isEmpty)
        #expect(document.all("title").map(\.text) == [String(title.dropLast()) + "\u{FFFD}"])
    }

    @Test func `custom colours are used and the code still reads back`() throws {
        let matrix = try QRCodeMatrix(QRSamples.typical)
        let svg = try QRCodeImage.svg(matrix, darkColor: "#1a2b3c", lightColor: "rgb(250, 250, 240)")
        let document = try SVGDocument(svg)
        #expect(document.all("path").first?.attributes["fill"] == "#1a2b3c")
        #expect(document.all("rect").first?.attributes["fill"] == "rgb(250, 250, 240)")
        #expect(try QRReader.decode(svg: svg) == QRSamples.typical)
    }

    @Test(arguments: ["", "red\" onload=\"alert(1)", "a<b", "url('x')", "#000;fill:red", String(repeating: "a", count: 65)])
    func `a colour that is not plain CSS colour syntax is refused`(color: String) throws {
        let matrix = try QRCodeMatrix(QRSamples.short)
        let dark = #expect(throws: QRCodeImageError.self) { try QRCodeImage.svg(matrix, darkColor: color) }
        #expect(dark?.code == .invalidColor)
        let light = #expect(throws: QRCodeImageError.self) { try QRCodeImage.svg(matrix, lightColor: color) }
        #expect(light?.code == .invalidColor)
    }

    @Test(arguments: [(0, 4), (33, 4), (8, -1), (8, 17)])
    func `a module size or quiet zone outside the caps is refused`(moduleSize: Int, quietZone: Int) throws {
        let matrix = try QRCodeMatrix(QRSamples.short)
        let error = #expect(throws: QRCodeImageError.self) {
            try QRCodeImage.svg(matrix, moduleSize: moduleSize, quietZone: quietZone)
        }
        #expect(error?.code == .invalidSize)
    }

    @Test func `the SVG stays compact: one run per horizontal stretch of dark modules`() throws {
        let matrix = try QRCodeMatrix(QRSamples.long, correction: .high)
        let svg = try QRCodeImage.svg(matrix)
        var runs = 0
        for row in 0..<matrix.size {
            for column in 0..<matrix.size where matrix[row, column] && (column == 0 || !matrix[row, column - 1]) {
                runs += 1
            }
        }
        #expect(svg.components(separatedBy: "z").count - 1 == runs)
        #expect(svg.utf8.count < runs * 20 + 400, "about 15 bytes per run plus a fixed header")
    }
}
