import SplashCore

/// Draws the detail screen on its grid (`DetailLayout`): the campaign's picture, title and
/// wrapped text, its link as a QR code, and the poetry card.
struct DetailRenderer {
    var surface: Surface
    var fonts: FontBook

    /// Draws `scene`; a picture that cannot be decoded is left out and reported.
    func draw(_ scene: DetailScene) throws {
        let screen = surface.layoutSize
        // Modules of the usual size, smaller for a long link, so the code keeps to its share;
        // a code that would need modules under 2 px there is left out (feed check warns of
        // links that long).
        let (code, module) = Self.linkCode(scene.linkURL, screen: screen)
        let layout = DetailLayout(screen: screen, linkSide: code.map { $0.size * module })
        surface.clear(Palette.page)

        // The picture at the size it takes in its box, then the text under it; the whole
        // set centred in the column's height, so nothing piles at the top. A portrait
        // picture on a landscape screen stands at the column's left, as tall as the column
        // lets it, with the text beside it.
        var failure: Error?
        var picture: Rect?
        var textColumn = layout.main
        var beside = false
        if let path = scene.imagePath {
            do {
                let size = try surface.imageSize(path)
                beside = !layout.stacked && size.height * 10 > size.width * 11
                var box = layout.pictureBox
                if beside {
                    box = Rect(x: layout.main.x, y: layout.main.y, width: layout.main.width * 45 / 100, height: layout.main.height)
                }
                var placed = ImageFit.fit.placement(of: size, on: Size(width: box.width, height: box.height)).destination
                placed.x = beside ? box.x : placed.x + box.x
                placed.y = beside ? box.y + (box.height - placed.height) / 2 : 0
                picture = placed
                if beside {
                    textColumn = Rect(x: placed.maxX + layout.gutter, y: layout.main.y,
                                      width: layout.main.maxX - placed.maxX - layout.gutter, height: layout.main.height)
                }
            } catch {
                failure = error
            }
        }
        let gap = layout.bodySize
        var title = scene.title.map {
            TextBlock($0, width: textColumn.width, size: layout.titleSize, bold: true, maxLines: 2, fonts: fonts)
        }
        let pictureHeight = beside ? 0 : picture.map { $0.height + gap * 3 / 2 } ?? 0
        let titleHeight = title.map { $0.height + gap / 2 } ?? 0
        let room = max(0, textColumn.height - pictureHeight - titleHeight)
        let body = fittedBody(scene.text, width: textColumn.width, room: room, layout: layout)
        if title != nil, room < body.lineHeight { title?.truncate(toLines: 1, width: textColumn.width, fonts: fonts) }
        let used = pictureHeight + (title.map { $0.height + gap / 2 } ?? 0) + body.height
        var y = textColumn.y + max(0, (textColumn.height - used) / 2)
        if var placed = picture, let path = scene.imagePath {
            if !beside { placed.y = y }
            do {
                try surface.drawImage(path, in: placed, mode: .fill)
            } catch {
                failure = error
            }
            y += pictureHeight
        }
        if let title {
            title.draw(on: surface, at: Point(x: textColumn.x, y: y), fonts: fonts, color: Palette.ink)
            y += title.height + gap / 2
        }
        body.draw(on: surface, at: Point(x: textColumn.x, y: y), fonts: fonts, color: Palette.softInk)
        if let code, var place = layout.link {
            // Under a stacked campaign, the code follows its text.
            if layout.stacked { place.y = min(place.y, y + body.height + layout.gutter) }
            drawLink(code, module: module, in: place, unit: layout.unit)
        }

        PoetryCard(surface: surface, fonts: fonts).draw(scene.poetry, spinnerPhase: scene.spinnerPhase, in: layout.card)
        if let failure { throw failure }
    }

    /// The QR code of `link` and its module size on `screen`, or nil when there is no link
    /// or its code cannot keep to 36 % of the short side with modules of 2 px or more.
    static func linkCode(_ link: String?, screen: Size) -> (QRCode?, Int) {
        let usual = LinkCodeSize.usualModulePixels(short: screen.shorterSide)
        guard let code = link.flatMap(QRCode.init),
              let module = LinkCodeSize.modulePixels(modules: code.size, short: screen.shorterSide) else { return (nil, usual) }
        return (code, module)
    }

    /// The body text in `room`: at its size if it fits, else shrunk step by step down to
    /// the grid's smallest, and only then cut with "…".
    private func fittedBody(_ text: String, width: Int, room: Int, layout: DetailLayout) -> TextBlock {
        var size = layout.bodySize
        while true {
            let lines = max(0, room / max(1, fonts.lineHeight(size: size)))
            let block = TextBlock(text, width: width, size: size, maxLines: lines, fonts: fonts)
            let whole = TextBlock(text, width: width, size: size, maxLines: lines + 1, fonts: fonts)
            if whole.lines.count <= lines || size <= layout.minBodySize { return block }
            size = max(layout.minBodySize, size * 9 / 10)
        }
    }

    /// The caption under a campaign's QR code, one line each.
    static let linkCaption = ["扫码了解更多", "Scan for more"]

    /// Draws the QR code of the campaign's link with its two-line caption inside `place`:
    /// each line centred under the code and never wider than it.
    private func drawLink(_ code: QRCode, module: Int, in place: Rect, unit: Int) {
        let side = code.size * module
        code.draw(on: surface, at: Point(x: place.x, y: place.y), module: module)
        var y = place.y + side + unit / 4
        for line in Self.linkCaption {
            var size = max(11, unit * 7 / 10)
            while size > 9, fonts.width(of: line, size: size) > side { size -= 1 }
            let w = fonts.width(of: line, size: size)
            surface.drawText(line, at: Point(x: place.x + max(0, (side - w) / 2), y: y), fonts: fonts, size: size, color: Palette.softInk)
            y += fonts.lineHeight(size: size)
        }
    }
}
