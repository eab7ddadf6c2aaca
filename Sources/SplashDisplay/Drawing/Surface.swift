import SplashCore

/// What a screen is drawn on: the pixels of a frame of the layout size (`Pixmap`) and the
/// runs of text drawn on them. The canvas has one for the screen (new whenever the screen's
/// frame changes); a frame drawn ahead off the screen has one of its own. Decoded pictures
/// are shared between them through the canvas's `PictureShelf`.
public final class Surface {
    /// The pixels drawn on.
    let frame: Pixmap
    /// The size screens are laid out in.
    public internal(set) var layoutSize: Size
    /// Every run of text drawn on this surface since it was handed out, with where its
    /// glyphs went and its size in pixels: what a test holds to the screen, to the boxes of
    /// the layout and to the smallest text.
    public internal(set) var textRuns: [(text: String, rect: Rect, size: Int)] = []
    let shelf: PictureShelf

    init(frame: Pixmap, shelf: PictureShelf) {
        self.frame = frame
        layoutSize = frame.size
        self.shelf = shelf
    }
}
