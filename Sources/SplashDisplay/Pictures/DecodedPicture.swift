import SplashCore

/// A picture kept as decoded and drawn straight onto the frame's pixels (over them, by its
/// alpha, when it has transparency).
///
/// It starts as decoded: a JPEG already scaled down in the decoder to about the size it is
/// drawn at, a PNG at full size, 24-bit where it is opaque. When its first draw is smaller,
/// it is scaled down once (bilinear, converted to the frame's layout as it goes) and the
/// larger copy is freed: a picture is never held twice in full, and redrawing it (the
/// countdown, once a second) is a plain copy.
final class DecodedPicture {
    /// The original picture's size; placements are computed on it.
    let size: Size
    /// The pixels held now (full size, or scaled down by `held(_:)`'s factor).
    private(set) var pixmap: Pixmap
    /// Pixels held per pixel of the original (1 for a whole picture).
    private var scale: Double
    /// Pixels held per pixel of the original: a draw that needs more decodes the picture again.
    var heldScale: Double { scale }
    /// Only the first draw scales down what is held (the splash, the largest); later,
    /// smaller draws (the detail screen's picture) scale from it without replacing it.
    private var drawn = false

    /// Keeps `pixmap`, decoded from a picture of `original` size (its own size when nil).
    init(_ pixmap: Pixmap, original: Size? = nil) {
        self.pixmap = pixmap
        size = original ?? pixmap.size
        scale = Double(pixmap.width) / Double(max(1, size.width))
    }

    /// Whether the picture has transparency, drawn over what lies under it.
    var hasTransparency: Bool { pixmap.hasAlpha }

    /// Draws the part `source` (in the original's pixels) into `destination` on `frame`.
    func draw(_ source: Rect, to destination: Rect, on frame: Pixmap) {
        let wanted = Double(destination.width) / Double(max(1, source.width))
        defer { drawn = true }
        let whole = source == Rect(x: 0, y: 0, width: size.width, height: size.height)
        if !drawn, wanted < scale, whole, !pixmap.hasAlpha, destination.clipped(to: frame.bounds) == destination,
           let held = Pixmap(width: destination.width, height: destination.height, format: frame.format) {
            // The whole picture goes straight onto the frame, scaled. What is held from now
            // on is that part of the frame: a big picture and its smaller copy are never
            // both kept.
            frame.draw(pixmap, from: self.held(source), to: destination)
            held.copy(frame, from: destination)
            pixmap = held
            scale = wanted
            return
        }
        if !drawn, wanted < scale {
            let target = Size(width: max(1, Int((Double(size.width) * wanted).rounded())),
                              height: max(1, Int((Double(size.height) * wanted).rounded())))
            if let smaller = Pixmap(width: target.width, height: target.height, format: pixmap.hasAlpha ? .argb32 : .xrgb32) {
                smaller.draw(pixmap, from: pixmap.bounds, to: smaller.bounds)
                pixmap = smaller
                scale = wanted
            }
        }
        frame.draw(pixmap, from: held(source), to: destination, blend: pixmap.hasAlpha)
    }

    /// `source` (in the original's pixels) in the pixels held now.
    func held(_ source: Rect) -> Rect {
        var rect = source.scaled(by: scale)
        rect.width = max(1, min(rect.width, pixmap.width - rect.x))
        rect.height = max(1, min(rect.height, pixmap.height - rect.y))
        return rect
    }
}
