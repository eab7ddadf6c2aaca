import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// Frames read back as PNG: snapshots and the control socket's screenshots.
extension Canvas {
    /// Reads the frame back and saves it as a PNG.
    func writePNG(_ path: String) throws {
        do {
            try screenshotPNG().write(to: URL(fileURLWithPath: path))
        } catch {
            throw DisplayError.sdl("writing \(path)", error.explained)
        }
    }

    /// The frame on the screen as a PNG, as a person sees it (rotation applied): what the
    /// last `endFrame` presented (the software paths keep it in the frame's pixels).
    public func screenshotPNG() throws -> Data {
        // 24-bit rows: the PNG is opaque whatever the frame's unused byte holds.
        guard let rgb = Pixmap(width: frame.width, height: frame.height, format: .rgb24) else {
            throw DisplayError.sdl("a screenshot", "not enough memory")
        }
        rgb.copy(frame)
        do {
            return try PNGEncoder.encode(rgb.pixels, width: rgb.width, height: rgb.height, pitch: rgb.pitch)
        } catch {
            throw DisplayError.sdl("a screenshot", error.explained)
        }
    }
}
