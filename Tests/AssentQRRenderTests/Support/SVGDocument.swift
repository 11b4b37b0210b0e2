import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG document read with a real XML parser, so malformed markup or bad escaping fails the test.
struct SVGDocument {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Every element in document order.
    var elements: [Element]

    init(_ text: String) throws {
        let parser = XMLParser(data: Data(text.utf8))
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else {
            throw Malformed(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        elements = collector.elements
    }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        private var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(elements.count)
            elements.append(Element(name: elementName, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { elements[index].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }
    }
}

/// Turns the path's `M<x> <y>h<n>v1h-<n>z` runs back into a module grid, refusing anything else in `d`.
enum SVGPathRuns {
    struct Unexpected: Error, CustomStringConvertible {
        let description: String
    }

    /// A `side` × `side` grid, row-major, true where a run covers the module.
    static func grid(_ d: String, side: Int) throws -> [Bool] {
        var grid = [Bool](repeating: false, count: side * side)
        var rest = Substring(d)
        let run = /^M(\d+) (\d+)h(\d+)v1h-(\d+)z/
        while !rest.isEmpty {
            guard let match = rest.prefixMatch(of: run) else {
                throw Unexpected(description: "path data not made of runs at: \(rest.prefix(40))")
            }
            let (x, y, width, back) = (Int(match.1)!, Int(match.2)!, Int(match.3)!, Int(match.4)!)
            guard width == back, width > 0, y < side, x + width <= side else {
                throw Unexpected(description: "run \(match.0) leaves the \(side)-module view box or is not a closed row")
            }
            for column in x..<x + width {
                guard !grid[y * side + column] else { throw Unexpected(description: "runs overlap at \(column), \(y)") }
                grid[y * side + column] = true
            }
            rest = rest[match.range.upperBound...]
        }
        return grid
    }
}
