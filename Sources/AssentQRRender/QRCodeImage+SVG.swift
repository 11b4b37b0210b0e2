import AssentLog

extension QRCodeImage {
    /// The symbol as a standalone SVG document that can also be inlined in HTML.
    ///
    /// The `viewBox` is in modules and all dark modules are one `<path>` of horizontal runs over a light `<rect>`,
    /// drawn with `shape-rendering="crispEdges"`. The element has `role="img"` and a `<title>` as its accessible name.
    ///
    /// - Parameters:
    ///   - matrix: The symbol to draw.
    ///   - moduleSize: CSS pixels per module for the `width` and `height` attributes, in ``moduleSizes``.
    ///   - quietZone: Light margin in modules, in ``quietZones``.
    ///   - darkColor: A CSS colour for dark modules, such as `#000`, `#1a2b3c`, `black` or `rgb(0 0 0)`.
    ///   - lightColor: A CSS colour for the background and quiet zone.
    ///   - title: The accessible name; `nil` gives "QR code". It is escaped, so any text is safe.
    /// - Throws: ``QRCodeImageError`` with code ``QRCodeImageError/Code/invalidSize`` or
    ///   ``QRCodeImageError/Code/invalidColor``.
    package static func svg(
        _ matrix: QRCodeMatrix, moduleSize: Int = 8, quietZone: Int = 4, darkColor: String = "#000",
        lightColor: String = "#fff", title: String? = nil
    ) throws -> String {
        let side = try side(of: matrix, moduleSize: moduleSize, quietZone: quietZone)
        try checkColor(darkColor, name: "darkColor")
        try checkColor(lightColor, name: "lightColor")
        let pixels = side * moduleSize

        var path = ""
        for row in 0..<matrix.size {
            var column = 0
            while column < matrix.size {
                guard matrix[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < matrix.size, matrix[row, column] { column += 1 }
                let run = column - start
                path += "M\(start + quietZone) \(row + quietZone)h\(run)v1h-\(run)z"
            }
        }

        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" \
            shape-rendering="crispEdges" role="img"><title>\(MarkupText.escape(title ?? "QR code"))</title>\
            <rect width="\(side)" height="\(side)" fill="\(lightColor)"/><path fill="\(darkColor)" d="\(path)"/></svg>
            """
    }

    /// Accepts the characters of hex, named and functional CSS colours, and nothing that could end an attribute.
    private static func checkColor(_ color: String, name: String) throws {
        let allowed = color.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "#", "(", ")", ",", ".", "%", "/", " ", "-": true
            default: false
            }
        }
        guard allowed, (1...64).contains(color.utf8.count) else {
            throw QRCodeImageError(.invalidColor, "\(name) must be a CSS colour of 1 to 64 characters such as #000")
        }
    }
}
