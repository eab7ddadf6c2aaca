import Glibc
import FoundationEssentials
import SplashCore

/// The poetry panel, drawn like the home-screen widget it comes from: a yellow card with
/// rounded corners and a soft shadow, a square picture on the left, the origin in bold
/// and the poem's lines beside it, the author last. Text shrinks until it fits inside
/// the card; what still does not fit ends with "…".
struct PoetryCard {
    var surface: Surface
    var fonts: FontBook

    func draw(_ entry: PoetryEntry, spinnerPhase: Int?, in card: Rect) {
        let radius = max(8, card.height / 10)
        for i in 1...4 {
            let spread = i * max(1, card.height / 90)
            surface.fillRoundedRect(Rect(x: card.x - spread / 2, y: card.y + spread, width: card.width + spread,
                                        height: card.height + spread / 2),
                                   radius: radius + spread, .black, alpha: 14)
        }
        surface.fillRoundedRect(card, radius: radius, .widgetYellow)

        let pad = Self.padding(of: card)
        let picture = Self.pictureSquare(in: card)
        drawPicture(entry, spinnerPhase: spinnerPhase, in: picture)

        let textX = picture.maxX + pad
        let textWidth = card.maxX - pad - textX
        guard textWidth > 0 else { return }
        drawText(entry, in: Rect(x: textX, y: card.y + pad, width: textWidth, height: card.height - 2 * pad))
    }

    /// The card's inner margin.
    static func padding(of card: Rect) -> Int { max(8, card.height * 8 / 100) }

    /// The picture: a square on the left, at most 38 % of the card's width, so the
    /// verses keep room beside it.
    static func pictureSquare(in card: Rect) -> Rect {
        let pad = padding(of: card)
        let side = min(card.height - 2 * pad, card.width * 38 / 100)
        return Rect(x: card.x + pad, y: card.y + (card.height - side) / 2, width: side, height: side)
    }

    /// Origin, lines and author: sized so a verse fits on one line where it can, then
    /// shrunk step by step until everything fits `box`.
    private func drawText(_ entry: PoetryEntry, in box: Rect) {
        var body = entry.lines.joined(separator: "\n")
        if let author = entry.author { body += "\n—— " + author }
        var originSize = max(12, box.height * 15 / 100)
        var lineSize = max(10, box.height * 11 / 100)
        let widest = body.split(separator: "\n").map { fonts.width(of: String($0), size: lineSize) }.max() ?? 0
        if widest > box.width {
            let scaled = lineSize * box.width / widest
            if scaled >= lineSize * 6 / 10 {
                originSize = max(9, originSize * scaled / lineSize)
                lineSize = scaled
            }
        }
        func layout() -> (TextBlock, TextBlock, Int) {
            // Never more lines than the card can hold (plus one, to know it overflows).
            (TextBlock(entry.origin, width: box.width, size: originSize, bold: true, maxLines: 3, fonts: fonts),
             TextBlock(body, width: box.width, size: lineSize,
                       maxLines: box.height / max(1, fonts.lineHeight(size: lineSize)) + 1, fonts: fonts), lineSize / 2)
        }
        var (origin, lines, gap) = layout()
        while origin.height + gap + lines.height > box.height, lineSize > 9 {
            originSize = max(9, originSize * 9 / 10)
            lineSize = max(9, lineSize * 9 / 10)
            (origin, lines, gap) = layout()
        }
        origin.truncate(toLines: max(1, min(2, box.height / max(1, origin.lineHeight))), width: box.width, fonts: fonts)
        let room = box.height - origin.height - gap
        lines.truncate(toLines: max(0, room / max(1, lines.lineHeight)), width: box.width, fonts: fonts)
        let used = origin.height + gap + lines.height
        let top = box.y + max(0, (box.height - used) / 2)
        origin.draw(on: surface, at: Point(x: box.x, y: top), fonts: fonts, color: Palette.poemInk)
        lines.draw(on: surface, at: Point(x: box.x, y: top + origin.height + gap), fonts: fonts, color: Palette.poemInk)
    }

    /// The poem's picture; while one loads with none to show, a turning spinner; with no
    /// picture at all, a drawn emblem: the title's first character on a tile of its own colour.
    private func drawPicture(_ entry: PoetryEntry, spinnerPhase: Int?, in square: Rect) {
        let radius = max(6, square.height / 12)
        if let path = entry.imagePath, (try? surface.drawImage(path, in: square, mode: .fill)) != nil {
            return
        }
        if let phase = spinnerPhase {
            surface.fillRoundedRect(square, radius: radius, Palette.emblem)
            drawSpinner(phase: phase, in: square)
            return
        }
        let tile = entry.source == .placeholder ? Palette.emblem : Palette.emblemColor(for: entry.origin)
        surface.fillRoundedRect(square, radius: radius, tile)
        let glyph = entry.source == .placeholder ? "诗" : String(entry.origin.first ?? "诗")
        let size = square.height * 55 / 100
        let w = fonts.width(of: glyph, size: size, bold: true)
        let h = fonts.lineHeight(size: size, bold: true)
        surface.drawText(glyph, at: Point(x: square.x + (square.width - w) / 2, y: square.y + (square.height - h) / 2),
                        fonts: fonts, size: size, bold: true, color: .white)
    }

    /// Twelve dots on a ring, the brightest at `phase`, fading behind it.
    private func drawSpinner(phase: Int, in square: Rect) {
        let center = square.center
        let ring = Double(square.width) * 0.22
        let dot = max(4, square.width / 16)
        for i in 0..<12 {
            let angle = Double(i) / 12 * 2 * Double.pi
            let x = center.x + Int((ring * sin(angle)).rounded()) - dot / 2
            let y = center.y - Int((ring * cos(angle)).rounded()) - dot / 2
            let age = ((phase - i) % 12 + 12) % 12
            surface.fillRoundedRect(Rect(x: x, y: y, width: dot, height: dot), radius: dot / 2, .white,
                                   alpha: UInt8(255 - age * 18))
        }
    }
}
