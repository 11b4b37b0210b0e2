/// Left-aligned columns for human output; the first row is the header.
enum Table {
    /// The rows as text, columns separated by two spaces, trailing spaces trimmed.
    static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return line
        }.joined(separator: "\n")
    }

    /// A listing: `empty` when there are no `items`, otherwise the table of `header` and one row for each item.
    static func render<Item>(_ items: [Item], empty: String, header: [String], row: (Item) -> [String]) -> String {
        items.isEmpty ? empty : render([header] + items.map(row))
    }
}
