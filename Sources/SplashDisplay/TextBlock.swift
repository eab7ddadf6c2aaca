import SplashCore

/// Wrapped text at one size: the lines and the height they take.
struct TextBlock {
    var lines: [String]
    var size: Int
    var bold: Bool
    var lineHeight: Int

    var height: Int { lines.count * lineHeight }

    /// Wraps `text` to `width` with the CJK-aware line breaker, measuring with `fonts`.
    /// With `maxLines`, only that many lines are laid out (the work stops there, however
    /// long the text) and the last one ends with "…" when text was cut.
    init(_ text: String, width: Int, size: Int, bold: Bool = false, maxLines: Int? = nil, fonts: FontBook) {
        self.size = size
        self.bold = bold
        lineHeight = fonts.lineHeight(size: size, bold: bold)
        lines = LineBreaker.wrap(text, maxWidth: width, maxLines: maxLines ?? .max) {
            fonts.width(of: $0, size: size, bold: bold)
        }
        if let maxLines { truncate(toLines: maxLines, width: width, fonts: fonts) }
    }

    /// Keeps at most `maxLines` lines, ending the last kept one with "…" when text was cut.
    mutating func truncate(toLines maxLines: Int, width: Int, fonts: FontBook) {
        guard lines.count > maxLines else { return }
        lines = Array(lines.prefix(max(0, maxLines)))
        guard var last = lines.popLast() else { return }
        while !last.isEmpty, fonts.width(of: last + "…", size: size, bold: bold) > width { last.removeLast() }
        lines.append(last + "…")
    }

    /// Draws the lines from `origin` downwards.
    func draw(on surface: Surface, at origin: Point, fonts: FontBook, color: RGBColor) {
        for (i, line) in lines.enumerated() {
            surface.drawText(line, at: Point(x: origin.x, y: origin.y + i * lineHeight), fonts: fonts,
                            size: size, bold: bold, color: color)
        }
    }
}
