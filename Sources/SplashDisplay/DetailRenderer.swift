import SplashCore

/// Draws the detail screen: the campaign's picture, title and wrapped text, and the
/// poetry card.
struct DetailRenderer {
    var surface: Surface
    var fonts: FontBook

    /// Draws `scene`; a picture that cannot be decoded is left out and reported.
    func draw(_ scene: DetailScene) throws {
        var layout = DetailLayout(screen: surface.layoutSize)
        surface.clear(Palette.page)
        if let link = scene.linkURL, let code = QRCode(link) {
            drawLink(code, layout: &layout)
        }
        var failure: Error?
        var textTop = layout.text.y
        if let path = scene.imagePath {
            do {
                let size = try surface.imageSize(path)
                var placed = ImageFit.fit.placement(of: size, on: Size(width: layout.picture.width, height: layout.picture.height))
                    .destination
                placed.x = layout.picture.x
                placed.y += layout.picture.y
                try surface.drawImage(path, in: placed, mode: .fill)
            } catch {
                failure = error
                textTop = layout.picture.y
            }
        } else {
            textTop = layout.picture.y
        }

        let bottom = layout.text.maxY
        if let title = scene.title {
            let block = TextBlock(title, width: layout.text.width, size: layout.titleSize, bold: true, maxLines: 2,
                                  fonts: fonts)
            block.draw(on: surface, at: Point(x: layout.text.x, y: textTop), fonts: fonts, color: Palette.ink)
            textTop += block.height + layout.bodySize / 2
        }
        let room = max(0, (bottom - textTop) / max(1, fonts.lineHeight(size: layout.bodySize)))
        let body = TextBlock(scene.text, width: layout.text.width, size: layout.bodySize, maxLines: room, fonts: fonts)
        body.draw(on: surface, at: Point(x: layout.text.x, y: textTop), fonts: fonts, color: Palette.softInk)

        PoetryCard(surface: surface, fonts: fonts).draw(scene.poetry, spinnerPhase: scene.spinnerPhase, in: layout.card)
        if let failure { throw failure }
    }

    /// The caption under a campaign's QR code.
    static let linkCaption = "扫码了解更多 · Scan for more"

    /// Draws the QR code of the campaign's link with its caption: below the poetry card in
    /// landscape, at the right of the text in portrait (whose column narrows for it).
    private func drawLink(_ code: QRCode, layout: inout DetailLayout) {
        let screen = surface.layoutSize
        let module = QRCode.modulePixels(short: screen.shorterSide)
        let side = code.size * module
        let captionSize = layout.bodySize * 3 / 4
        let captionWidth = fonts.width(of: Self.linkCaption, size: captionSize)
        let origin: Point
        if screen.isPortrait {
            origin = Point(x: layout.text.maxX - side, y: layout.text.y)
            layout.text.width = max(0, layout.text.width - side - layout.bodySize)
        } else {
            origin = Point(x: layout.card.x, y: layout.card.maxY + layout.bodySize)
        }
        code.draw(on: surface, at: origin, module: module)
        let captionX = origin.x + max(0, (side - captionWidth) / 2)
        surface.drawText(Self.linkCaption, at: Point(x: captionX, y: origin.y + side + captionSize / 3), fonts: fonts,
                         size: captionSize, color: Palette.softInk)
    }
}
