/// A plain-text table with aligned columns; Chinese characters count as two columns,
/// as terminals draw them.
public struct TextTable {
    /// The column titles, the table's first line.
    public var header: [String]
    /// The rows under the titles, one list of cells each.
    public var rows: [[String]] = []

    /// An empty table with these column titles.
    public init(header: [String]) {
        self.header = header
    }

    /// Adds a row at the bottom.
    public mutating func append(_ row: [String]) { rows.append(row) }

    /// The table, one line per row, columns separated by two spaces. Cells are shown as
    /// printable text (`TerminalText`): what a feed put in them cannot act on the terminal.
    public func render() -> String {
        let all = ([header] + rows).map { $0.map(TerminalText.printable) }
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], Self.width(cell)) }
        }
        return all.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - Self.width(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Terminal columns taken by `s`.
    public static func width(_ s: String) -> Int {
        s.reduce(0) { $0 + (LineBreaker.isCJK($1) ? 2 : 1) }
    }
}
