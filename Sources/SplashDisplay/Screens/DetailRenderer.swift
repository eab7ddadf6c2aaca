import SplashCore

/// Draws the detail screen where `DetailPlacement` puts each part: the campaign's picture,
/// title and wrapped text, its link as a QR code, and the poetry card.
struct DetailRenderer {
    var surface: Surface
    var fonts: FontBook

    /// Draws `scene`; a picture that cannot be decoded is left out and reported.
    func draw(_ scene: DetailScene) throws {
        var failure: Error?
        var pictureSize: Size?
        if let path = scene.imagePath {
            do { pictureSize = try surface.imageSize(path) } catch { failure = error }
        }
        let placement = DetailPlacement(scene, screen: surface.layoutSize, pictureSize: pictureSize, fonts: fonts)
        surface.clear(Palette.page)
        if let picture = placement.picture, let path = scene.imagePath {
            do {
                try surface.drawImage(path, in: picture, mode: .fill, focus: scene.focus)
                drawEdge(around: picture)
            } catch { failure = error }
        }
        placement.title?.draw(on: surface, at: placement.titleOrigin, fonts: fonts, color: Palette.ink)
        placement.body.draw(on: surface, at: placement.bodyOrigin, fonts: fonts, color: Palette.softInk)
        if let code = placement.code { drawLink(code, unit: placement.layout.unit) }
        PoetryCard(surface: surface, fonts: fonts).draw(scene.poetry, layout: placement.cardLayout, spinnerPhase: scene.spinnerPhase,
                                                        at: Point(x: placement.card.x, y: placement.card.y))
        if let failure { throw failure }
    }

    /// A hairline of black at 9 % just inside the picture's edge: a near-white picture keeps
    /// its edge against the page (1.12:1 without it), a dark one is not changed to the eye.
    private func drawEdge(around picture: Rect) {
        let line = DetailRenderer.edgeWidth(for: surface.layoutSize)
        let alpha = Palette.pictureEdgeAlpha
        surface.fill(Rect(x: picture.x, y: picture.y, width: picture.width, height: line), .black, alpha: alpha)
        surface.fill(Rect(x: picture.x, y: picture.maxY - line, width: picture.width, height: line), .black, alpha: alpha)
        surface.fill(Rect(x: picture.x, y: picture.y + line, width: line, height: picture.height - 2 * line), .black, alpha: alpha)
        surface.fill(Rect(x: picture.maxX - line, y: picture.y + line, width: line, height: picture.height - 2 * line), .black,
                     alpha: alpha)
    }

    /// The picture's hairline: 1 px up to 1080p, 2 px on a 4K screen.
    static func edgeWidth(for screen: Size) -> Int { max(1, screen.shorterSide / 1080) }

    /// Draws a QR code and its caption (two lines at most): beside it, each line left-aligned and
    /// vertically centred on the code, or under it, each line centred and never wider than it.
    private func drawLink(_ place: DetailPlacement.CodePlace, unit: Int) {
        let side = place.side
        place.code.draw(on: surface, at: place.origin, module: place.module)
        let lines = DetailPlacement.captionLines(place.caption, room: place.captionRoom, size: place.captionSize,
                                                 together: place.captionBeside, fonts: fonts)
        if place.captionBeside {
            let x = place.origin.x + side + unit / 2
            let height = lines.reduce(0) { $0 + fonts.lineHeight(size: $1.size) }
            var y = place.origin.y + (side - height) / 2
            for line in lines {
                surface.drawText(line.text, at: Point(x: x, y: y), fonts: fonts, size: line.size, color: Palette.softInk)
                y += fonts.lineHeight(size: line.size)
            }
            return
        }
        var y = place.origin.y + side + unit / 4
        for line in lines {
            let w = fonts.width(of: line.text, size: line.size)
            surface.drawText(line.text, at: Point(x: place.origin.x + max(0, (side - w) / 2), y: y), fonts: fonts, size: line.size,
                            color: Palette.softInk)
            y += fonts.lineHeight(size: line.size)
        }
    }
}
