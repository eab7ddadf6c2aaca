import SplashCore

/// Wrapped text at one size: the lines and the height they take.
struct TextBlock {
    var lines: [String]
    var size: Int
    var bold: Bool
    var lineHeight: Int
    /// How far below its line's top a line's glyphs start: half the leading the line
    /// height adds to the font's own.
    var glyphOffset: Int
    /// Text was left out: the last line ends with the ellipsis `truncate` added (not one
    /// the text itself ends with).
    var cut = false

    var height: Int { lines.count * lineHeight }

    /// Wraps `text` to `width` with the CJK-aware line breaker, measuring with `fonts`.
    /// With `maxLines`, only that many lines are laid out (the work stops there, however
    /// long the text) and the last one ends with an ellipsis when text was cut. With
    /// `leading` (a multiple of the size for Latin and for Chinese text, docs/SCREENS.md),
    /// lines are that far apart, rounded up to `grid`, never closer than the font's own
    /// line skip; without, at the line skip. `balanced` sets wrapped lines at about one width.
    init(_ text: String, width: Int, size: Int, bold: Bool = false, maxLines: Int? = nil, leading: Leading? = nil,
         grid: Int = 1, balanced: Bool = false, fonts: FontBook) {
        self.size = size
        self.bold = bold
        let skip = fonts.lineHeight(size: size, bold: bold)
        if let leading {
            let wanted = Double(size) * (LineBreaker.isMostlyCJK(text) ? leading.chinese : leading.latin)
            let step = max(1, grid)
            lineHeight = max(skip, (Int(wanted.rounded(.up)) + step - 1) / step * step)
        } else {
            lineHeight = skip
        }
        glyphOffset = (lineHeight - skip) / 2
        let measure: (String) -> Int = { fonts.width(of: $0, size: size, bold: bold) }
        lines = balanced && maxLines != nil
            ? LineBreaker.balanced(text, maxWidth: width, maxLines: maxLines!, measure: measure)
            : LineBreaker.wrap(text, maxWidth: width, maxLines: maxLines ?? .max, measure: measure)
        if let maxLines { truncate(toLines: maxLines, width: width, fonts: fonts) }
    }

    /// Line spacing as a multiple of the type size, for Latin and for Chinese text.
    struct Leading {
        var latin: Double
        var chinese: Double
    }

    /// Keeps at most `maxLines` lines, ending the last kept one with an ellipsis when text
    /// was cut: Chinese "…" after a Chinese character, three full stops after Latin text
    /// (a Chinese font draws "…" centred on the line, as Chinese sets it). Latin text is cut
    /// at a word ("latecomers will be…", never "will be seat…"), unless the line is one word;
    /// Chinese at a phrase (after its punctuation, which the "…" stands for: "茶汤清亮…",
    /// never "豆香明…") where one ends in the line's second half.
    mutating func truncate(toLines maxLines: Int, width: Int, fonts: FontBook) {
        guard lines.count > maxLines else { return }
        lines = Array(lines.prefix(max(0, maxLines)))
        guard var last = lines.popLast() else { return }
        cut = true
        let whole = last
        func marked() -> String {
            while last.last == " " { last.removeLast() }
            return last + (last.last.map(LineBreaker.isCJK) ?? true ? "…" : "...")
        }
        while !last.isEmpty, fonts.width(of: marked(), size: size, bold: bold) > width { last.removeLast() }
        // Cut inside a Latin word: back to the space before it.
        if last.count < whole.count, let cut = last.last, !LineBreaker.isCJK(cut), cut != " ",
           whole[whole.index(whole.startIndex, offsetBy: last.count)] != " ", let space = last.lastIndex(of: " ") {
            last = String(last[..<space])
        }
        // Cut inside a Chinese phrase: back to the last phrase's end in the line's second half,
        // its closing punctuation given up to the "…".
        if last.count < whole.count, let cut = last.last, LineBreaker.isCJK(cut) {
            let next = String(whole[whole.index(whole.startIndex, offsetBy: last.count)...])
            let endsPhrase = next.first.map { PunctuationSqueeze.kind(of: $0) == .closing } ?? true
            if !endsPhrase, !LineBreaker.isPhraseBoundary(after: last, before: next) {
                let characters = Array(last)
                for end in stride(from: characters.count - 1, through: max(1, characters.count / 2), by: -1)
                    where LineBreaker.isPhraseBoundary(after: String(characters[..<end]), before: String(characters[end...])) {
                    last = String(characters[..<end])
                    break
                }
            }
        }
        // The "…" stands for a phrase's closing punctuation: "到店…", not "到店。…".
        while let tail = last.last, "，、；：。！？".contains(tail) { last.removeLast() }
        lines.append(marked())
    }

    /// The widest line, in pixels.
    func width(fonts: FontBook) -> Int {
        lines.map { fonts.width(of: $0, size: size, bold: bold) }.max() ?? 0
    }

    /// Draws the lines from `origin` downwards.
    func draw(on surface: Surface, at origin: Point, fonts: FontBook, color: RGBColor) {
        for (i, line) in lines.enumerated() {
            surface.drawText(line, at: Point(x: origin.x, y: origin.y + i * lineHeight + glyphOffset), fonts: fonts,
                            size: size, bold: bold, color: color)
        }
    }
}
