import Glibc
import FoundationEssentials
import SplashCore

/// The poetry panel, drawn like the home-screen widget it comes from, but quieter than the
/// campaign beside it: a card of a light tint of the widget's yellow with rounded corners
/// and no shadow, a square picture with rounded corners on the left, and beside it the
/// poem's title in bold, its lines, and the author in softer type; with no picture, a small
/// emblem no taller than the campaign's title, in a light tint of its colour. The card is as
/// tall and as wide as its content (`Layout`), nothing in it under 16 px: a poem too long for
/// it loses whole couplets from its end rather than shrink further.
struct PoetryCard {
    var surface: Surface
    var fonts: FontBook

    /// Where the card's parts go, and the card's height, for a poem and a width.
    struct Layout {
        var width: Int
        var height: Int
        var padding: Int
        /// The picture, relative to the card's top-left corner.
        var picture: Rect
        var origin: TextBlock
        var verses: TextBlock
        var author: TextBlock?
        var gap: Int

        /// The text's height: title, lines and author with the gaps between them.
        var textHeight: Int { origin.height + gap + verses.height + (author.map { gap + $0.height } ?? 0) }

        /// The smallest type in the card, as on every screen.
        static let smallestSize = DetailLayout.smallestBody
        /// Line spacing of the poem's verses.
        static let verseLeading = TextBlock.Leading(latin: 1.4, chinese: 1.5)

        /// Lays `entry` out in a card at most `width` wide on a grid of `unit`: at its sizes
        /// when it fits under `maxHeight`, else smaller step by step (never under 16 px), and
        /// then cut at whole couplets. The card is as wide as its content needs.
        init(_ entry: PoetryEntry, width: Int, maxHeight: Int, unit: Int, fonts: FontBook) {
            let pad = max(8, unit * 3 / 5)
            padding = pad
            // A picture: a square of 30 % of the card, at most 5 units. No picture: an emblem
            // no taller than the campaign's title's line (1¼ units at 1.3).
            let largest = entry.imagePath == nil ? max(24, unit * 5 / 4 * 13 / 10) : unit * 5
            let side = max(24, min(width * 30 / 100, largest, maxHeight - 2 * pad))
            picture = Rect(x: pad, y: pad, width: side, height: side)
            let textWidth = max(1, width - 3 * pad - side)
            let room = max(1, maxHeight - 2 * pad)
            let grid = max(2, unit / 8)
            func lay(scale: Int) -> (origin: TextBlock, verses: TextBlock, author: TextBlock?, gap: Int) {
                let floor = Self.smallestSize
                let originSize = max(floor, unit * 17 / 20 * scale / 100)
                var verseSize = max(floor, unit * 3 / 5 * scale / 100)
                let authorSize = max(floor, unit / 2 * scale / 100)
                // A verse on one line where it can: the lines' size comes down (to 70 %) before they wrap.
                let widest = entry.lines.map { fonts.width(of: $0, size: verseSize) }.max() ?? 0
                if widest > textWidth { verseSize = max(floor, max(verseSize * 7 / 10, verseSize * textWidth / widest)) }
                // Never more lines than the card can hold (plus one, to know it overflows).
                let cap = room / max(1, fonts.lineHeight(size: verseSize)) + 1
                return (TextBlock(entry.origin, width: textWidth, size: originSize, bold: true, maxLines: 2,
                                  leading: .init(latin: 1.2, chinese: 1.3), grid: grid, balanced: true, fonts: fonts),
                        TextBlock(entry.lines.joined(separator: "\n"), width: textWidth, size: verseSize, maxLines: max(1, cap),
                                  leading: Self.verseLeading, grid: grid, fonts: fonts),
                        entry.author.map { TextBlock("—— " + $0, width: textWidth, size: authorSize, maxLines: 1,
                                                     leading: .init(latin: 1.3, chinese: 1.4), grid: grid, fonts: fonts) },
                        max(2, verseSize / 2))
            }
            func height(_ set: (origin: TextBlock, verses: TextBlock, author: TextBlock?, gap: Int)) -> Int {
                set.origin.height + set.gap + set.verses.height + (set.author.map { set.gap + $0.height } ?? 0)
            }
            var scale = 100
            var set = lay(scale: scale)
            while height(set) > room, scale > 70 {
                scale -= 10
                set = lay(scale: scale)
            }
            if height(set) > room {
                // Whole couplets from the end: the verses that fit, down to an even count
                // (one verse where only one fits), laid out again at the same size.
                let left = room - set.origin.height - set.gap - (set.author.map { set.gap + $0.height } ?? 0)
                let fitting = max(1, left / max(1, set.verses.lineHeight))
                var kept = entry.lines
                while kept.count > 1 {
                    kept.removeLast(kept.count % 2 == 0 ? 2 : 1)
                    let block = TextBlock(kept.joined(separator: "\n"), width: textWidth, size: set.verses.size,
                                          leading: Self.verseLeading, grid: grid, fonts: fonts)
                    if block.lines.count <= fitting { set.verses = block; break }
                }
                if set.verses.lines.count > fitting {
                    set.verses.truncate(toLines: fitting, width: textWidth, fonts: fonts)
                }
                if height(set) > room { set.author = nil }
            }
            (origin, verses, author, gap) = set
            self.height = min(maxHeight, max(side, height(set)) + 2 * pad)
            // As wide as the widest of its lines needs, within `width`.
            let used = [set.origin.width(fonts: fonts), set.verses.width(fonts: fonts), set.author?.width(fonts: fonts) ?? 0].max() ?? 0
            self.width = min(width, picture.maxX + pad + used + pad)
        }

        /// The text column, relative to the card.
        var textBox: Rect {
            Rect(x: picture.maxX + padding, y: padding, width: width - 2 * padding - picture.maxX, height: height - 2 * padding)
        }
    }

    /// The card's corner radius.
    static func radius(of card: Rect) -> Int { max(8, min(card.height, card.width) / 12) }

    /// Draws `entry` laid out as `layout` with its top-left corner at `origin`.
    func draw(_ entry: PoetryEntry, layout: Layout, spinnerPhase: Int?, at origin: Point) {
        let card = Rect(x: origin.x, y: origin.y, width: layout.width, height: layout.height)
        surface.fillRoundedRect(card, radius: Self.radius(of: card), Palette.card)
        let picture = layout.picture.offsetBy(origin)
        drawPicture(entry, spinnerPhase: spinnerPhase, in: picture)
        let box = layout.textBox.offsetBy(origin)
        guard box.width > 0 else { return }
        // The text's ink on the picture's top: one line across the card (the first line's
        // characters, not their line box).
        let first = layout.origin
        var y = box.y - first.glyphOffset - fonts.inkTop(of: first.lines.first ?? "", size: first.size, bold: first.bold)
        layout.origin.draw(on: surface, at: Point(x: box.x, y: y), fonts: fonts, color: Palette.poemInk)
        y += layout.origin.height + layout.gap
        layout.verses.draw(on: surface, at: Point(x: box.x, y: y), fonts: fonts, color: Palette.poemInk)
        y += layout.verses.height + layout.gap
        layout.author?.draw(on: surface, at: Point(x: box.x, y: y), fonts: fonts, color: Palette.poemSoftInk)
    }

    /// The poem's picture with rounded corners; while one loads with none to show, a turning
    /// spinner; with no picture at all, a drawn emblem: the title's first character on a tile
    /// of its own colour.
    private func drawPicture(_ entry: PoetryEntry, spinnerPhase: Int?, in square: Rect) {
        let radius = max(6, square.height / 10)
        if let path = entry.imagePath, (try? surface.drawImage(path, in: square, mode: .fill)) != nil {
            surface.roundCorners(of: square, radius: radius, outside: Palette.card)
            return
        }
        if let phase = spinnerPhase {
            surface.fillRoundedRect(square, radius: radius, Palette.emblem)
            drawSpinner(phase: phase, in: square)
            return
        }
        // A light tint of the poem's tone, its glyph in the tone itself: quieter than the
        // campaign's title, which it is no taller than.
        let tone = entry.source == .placeholder ? Palette.poemSoftInk : Palette.emblemColor(for: entry.origin)
        surface.fillRoundedRect(square, radius: radius, Palette.tint(tone, 22))
        let glyph = entry.source == .placeholder ? "诗" : String(entry.origin.first ?? "诗")
        let size = square.height * 55 / 100
        let w = fonts.width(of: glyph, size: size, bold: true)
        let h = fonts.lineHeight(size: size, bold: true)
        surface.drawText(glyph, at: Point(x: square.x + (square.width - w) / 2, y: square.y + (square.height - h) / 2),
                        fonts: fonts, size: size, bold: true, color: tone)
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
