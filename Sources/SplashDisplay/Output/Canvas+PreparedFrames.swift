import Glibc
import FoundationEssentials
import SplashCore
import SplashServices

/// Frames drawn ahead of time off the screen, shown with one copy.
extension Canvas {
    /// A frame drawn ahead of time off the screen; showing it is one copy.
    public final class PreparedFrame {
        fileprivate let pixels: Pixmap
        fileprivate init(_ pixels: Pixmap) { self.pixels = pixels }
    }

    /// Draws a frame of the layout's size off the screen: `draw` gets a surface of its own
    /// (its own pixels; decoded pictures shared with the screen), which is let go when it
    /// returns. Nil where frames are turned, or memory is short.
    public func prepareFrame(_ draw: (Surface) -> Void) -> PreparedFrame? {
        guard rotation == .none, let pixels = Pixmap(width: frame.width, height: frame.height, format: frame.format)
        else { return nil }
        draw(Surface(frame: pixels, shelf: shelf))
        return PreparedFrame(pixels)
    }

    /// Starts decoding the picture at `path` on another thread, at the size a splash draws
    /// it on this screen with `fit`, for the frame that will show it.
    public func decodeAhead(_ path: String, fit: ImageFit) {
        let scale = (try? shelf.size(of: path)).map { fit.scale(of: $0, on: layoutSize) } ?? 1
        // Often the splash's picture is the detail screen's, still held large enough.
        if let kept = shelf.decoded[path], kept.heldScale >= min(1, scale) - 1e-9 { return }
        shelf.handOver(PendingPicture(path: path, scale: scale))
    }

    /// The pixel size of the picture at `path`, from its header; nil when it cannot be read.
    public func imageSize(of path: String) -> Size? {
        try? shelf.size(of: path)
    }

    /// Makes sure the picture at `path` is there and decodes before a show is recorded on it:
    /// decoded now at the size a splash draws it with `fit` (or taken from the decode that
    /// started ahead) and kept for the frame that shows it. Nil when it is ready; else why
    /// not, and whether the file is gone (rather than broken).
    public func prepare(_ path: String, fit: ImageFit) -> PictureTrouble? {
        var st = stat()
        if lstat(path, &st) != 0, errno == ENOENT || errno == ENOTDIR { return .gone }
        // Composed ahead into a frame: ready. One that did not compose is decoded as any other.
        if let composed, composed.path == path {
            if composed.take() != nil { return nil }
            self.composed = nil
        }
        if !shelf.isDecoding(path) { decodeAhead(path, fit: fit) }
        return shelf.problem(decoding: path).map(PictureTrouble.undecodable)
    }

    /// Copies a prepared frame onto the frame being drawn; false when it no longer fits
    /// (the output changed size).
    public func draw(_ prepared: PreparedFrame) -> Bool {
        guard rotation == .none, prepared.pixels.size == frame.size else { return false }
        frame.copy(prepared.pixels)
        return true
    }
}
