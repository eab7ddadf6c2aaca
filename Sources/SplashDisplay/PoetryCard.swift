import SplashCore

/// The poetry panel, drawn like the home-screen widget it comes from: a yellow card with
/// rounded corners and a soft shadow, a square picture on the left, the origin in bold
/// and the poem's lines beside it. Text shrinks until it fits inside the card.
struct PoetryCard {
    var canvas: Canvas
    var fonts: FontBook

    func draw(_ entry: PoetryEntry, in card: Rect) {
        let radius = max(8, card.height / 10)
        for i in 1...4 {
            let spread = i * max(1, card.height / 90)
            canvas.fillRoundedRect(Rect(x: card.x - spread / 2, y: card.y + spread, width: card.width + spread,
                                        height: card.height + spread / 2),
                                   radius: radius + spread, .black, alpha: 14)
        }
        canvas.fillRoundedRect(card, radius: radius, .widgetYellow)

        let pad = max(8, card.height * 8 / 100)
        let side = card.height - 2 * pad
        let picture = Rect(x: card.x + pad, y: card.y + pad, width: side, height: side)
        drawPicture(entry, in: picture)

        let textX = picture.maxX + pad
        let textWidth = card.maxX - pad - textX
        let available = card.height - 2 * pad
        guard textWidth > 0 else { return }
        var originSize = max(12, card.height * 12 / 100)
        var lineSize = max(10, card.height * 95 / 1000)
        var origin = TextBlock(entry.origin, width: textWidth, size: originSize, bold: true, fonts: fonts)
        var body = TextBlock(entry.lines.joined(separator: "\n"), width: textWidth, size: lineSize, fonts: fonts)
        var gap = lineSize / 2
        while origin.height + gap + body.height > available, lineSize > 8 {
            originSize = max(8, originSize * 9 / 10)
            lineSize = max(8, lineSize * 9 / 10)
            gap = lineSize / 2
            origin = TextBlock(entry.origin, width: textWidth, size: originSize, bold: true, fonts: fonts)
            body = TextBlock(entry.lines.joined(separator: "\n"), width: textWidth, size: lineSize, fonts: fonts)
        }
        if origin.height + gap + body.height > available {
            body.truncate(toLines: max(1, (available - origin.height - gap) / max(1, body.lineHeight)),
                          width: textWidth, fonts: fonts)
        }
        let top = card.y + pad + max(0, (available - origin.height - gap - body.height) / 2)
        origin.draw(on: canvas, at: Point(x: textX, y: top), fonts: fonts, color: Palette.poemInk)
        body.draw(on: canvas, at: Point(x: textX, y: top + origin.height + gap), fonts: fonts, color: Palette.poemInk)
    }

    /// The poem's picture, or a drawn emblem (诗 on a darker yellow tile) when it has none.
    private func drawPicture(_ entry: PoetryEntry, in square: Rect) {
        let radius = max(6, square.height / 12)
        if let path = entry.imagePath, (try? canvas.drawImage(path, in: square, mode: .fill)) != nil {
            return
        }
        canvas.fillRoundedRect(square, radius: radius, Palette.emblem)
        let size = square.height * 55 / 100
        let w = fonts.width(of: "诗", size: size, bold: true)
        let h = fonts.lineHeight(size: size, bold: true)
        canvas.drawText("诗", at: Point(x: square.x + (square.width - w) / 2, y: square.y + (square.height - h) / 2),
                        fonts: fonts, size: size, bold: true, color: .white)
    }
}
