import SplashCore

/// Draws the splash: the image on the background colour and the 跳过 N pill.
struct SplashRenderer {
    var surface: Surface
    var fonts: FontBook

    /// Draws `scene`; throws when its image cannot be decoded (the frame still gets the
    /// background and the pill, so it is never black or half drawn). `beforePill` is told
    /// when the picture is on the frame and the pill not yet. `pictureThere`: the frame
    /// already shows the picture on the background (composed ahead): the pill alone is drawn.
    func draw(_ scene: SplashScene, button: SkipButton, fit: ImageFit, background: RGBColor,
              pictureThere: Bool = false, beforePill: () -> Void = {}) throws {
        if pictureThere {
            beforePill()
            drawPill(scene.countdown, button: button)
            return
        }
        let screen = surface.layoutSize
        let whole = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        var failure: Error?
        do {
            // The background shows where the picture leaves room, where it is transparent (a
            // filled PNG, WebP or GIF covers the screen and may still let it through), or
            // when it cannot be drawn.
            let size = try surface.imageSize(scene.imagePath)
            if fit.placement(of: size, on: screen).destination != whole || surface.imageMayBeTransparent(scene.imagePath) {
                surface.clear(background)
            }
            try surface.drawImage(scene.imagePath, in: whole, mode: fit, focus: scene.focus, clearing: button.corner)
        } catch {
            surface.clear(background)
            failure = error
        }
        beforePill()
        drawPill(scene.countdown, button: button)
        if let failure { throw failure }
    }

    /// The 跳过 N pill alone, at `button`: a countdown tick over what was under it.
    func drawPill(_ countdown: Int, button: SkipButton) {
        let pill = button.frame
        // The solid fill inside the hairline, then the hairline around it: the same pill on
        // a picture, a clip or a bar.
        let edge = button.edgeWidth
        let fill = pill.insetBy(edge)
        surface.fillRoundedRect(fill, radius: fill.height / 2, Palette.pillFill)
        surface.strokeRoundedRect(pill, radius: pill.height / 2, width: edge, Palette.pillEdge)
        // 跳过 stays where it is as the count goes down: the number is set in two cells as
        // wide as the widest digit (tabular figures), each digit centred in its own, from
        // the left.
        let size = button.fontSize
        let word = "跳过 "
        let cell = (0...9).map { fonts.width(of: String($0), size: size) }.max() ?? size / 2
        let wordWidth = fonts.width(of: word, size: size)
        let h = fonts.lineHeight(size: size)
        let x = pill.x + (pill.width - wordWidth - 2 * cell) / 2
        let y = pill.y + (pill.height - h) / 2
        surface.drawText(word, at: Point(x: x, y: y), fonts: fonts, size: size, color: .white)
        for (i, digit) in String(countdown).enumerated() {
            let d = String(digit)
            let dx = x + wordWidth + i * cell + (cell - fonts.width(of: d, size: size)) / 2
            surface.drawText(d, at: Point(x: dx, y: y), fonts: fonts, size: size, color: .white)
        }
    }
}
