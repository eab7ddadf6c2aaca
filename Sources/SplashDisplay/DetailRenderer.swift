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
            do { try surface.drawImage(path, in: picture, mode: .fill, focus: scene.focus) } catch { failure = error }
        }
        placement.title?.draw(on: surface, at: placement.titleOrigin, fonts: fonts, color: Palette.ink)
        placement.body.draw(on: surface, at: placement.bodyOrigin, fonts: fonts, color: Palette.softInk)
        if let code = placement.code { drawLink(code, unit: placement.layout.unit) }
        PoetryCard(surface: surface, fonts: fonts).draw(scene.poetry, layout: placement.cardLayout, spinnerPhase: scene.spinnerPhase,
                                                        at: Point(x: placement.card.x, y: placement.card.y))
        if let failure { throw failure }
    }

    /// Draws a QR code and its two-line caption: beside it, each line left-aligned and
    /// vertically centred on the code, or under it, each line centred and never wider than it.
    private func drawLink(_ place: DetailPlacement.CodePlace, unit: Int) {
        let side = place.side
        place.code.draw(on: surface, at: place.origin, module: place.module)
        let lines = DetailPlacement.linkCaption
        if place.captionBeside {
            let x = place.origin.x + side + unit / 2
            let room = place.captionRoom
            var size = place.captionSize
            while size > 10, lines.contains(where: { fonts.width(of: $0, size: size) > room }) { size -= 1 }
            let height = fonts.lineHeight(size: size)
            var y = place.origin.y + (side - 2 * height) / 2
            for line in lines {
                surface.drawText(line, at: Point(x: x, y: y), fonts: fonts, size: size, color: Palette.softInk)
                y += height
            }
            return
        }
        var y = place.origin.y + side + unit / 4
        for line in lines {
            var size = place.captionSize
            while size > 9, fonts.width(of: line, size: size) > place.captionRoom { size -= 1 }
            let w = fonts.width(of: line, size: size)
            surface.drawText(line, at: Point(x: place.origin.x + max(0, (side - w) / 2), y: y), fonts: fonts, size: size,
                            color: Palette.softInk)
            y += fonts.lineHeight(size: size)
        }
    }
}
