import SplashCore

/// Draws the splash: the image on the background colour and the 跳过 N pill.
struct SplashRenderer {
    var canvas: Canvas
    var fonts: FontBook

    /// Draws `scene`; throws when its image cannot be decoded (the frame still gets the
    /// background and the pill, so it is never black or half drawn).
    func draw(_ scene: SplashScene, button: SkipButton, fit: ImageFit, background: RGBColor) throws {
        let screen = canvas.layoutSize
        let whole = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        var failure: Error?
        do {
            // The background shows only where the picture leaves room (or when it cannot be drawn).
            let size = try canvas.imageSize(scene.imagePath)
            if fit.placement(of: size, on: screen).destination != whole { canvas.clear(background) }
            try canvas.drawImage(scene.imagePath, in: whole, mode: fit)
        } catch {
            canvas.clear(background)
            failure = error
        }
        let pill = button.frame
        canvas.fillRoundedRect(pill, radius: pill.height / 2, .black, alpha: Palette.pillAlpha)
        let label = SkipButton.label(scene.countdown)
        let w = fonts.width(of: label, size: button.fontSize)
        let h = fonts.lineHeight(size: button.fontSize)
        canvas.drawText(label, at: Point(x: pill.x + (pill.width - w) / 2, y: pill.y + (pill.height - h) / 2),
                        fonts: fonts, size: button.fontSize, color: .white)
        if let failure { throw failure }
    }
}
