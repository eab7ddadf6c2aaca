import SplashCore

/// A copy of part of a frame (what lay under the pill), to put back before drawing over it again.
final class SavedRegion {
    let rect: Rect
    let key: String
    private let pixels: Pixmap

    /// Copies `rect` of `frame`; nil when it is not wholly inside it.
    init?(of frame: Pixmap, rect: Rect, key: String) {
        guard rect.width > 0, rect.height > 0, rect.clipped(to: frame.bounds) == rect,
              let copy = Pixmap(width: rect.width, height: rect.height, format: frame.format)
        else { return nil }
        copy.copy(frame, from: rect)
        self.rect = rect
        self.key = key
        pixels = copy
    }

    /// Puts the copy back where it came from.
    func restore(onto frame: Pixmap) {
        frame.copy(pixels, to: Point(x: rect.x, y: rect.y))
    }
}
