import FoundationEssentials

/// Frames read back as PNG: snapshots and the control socket's screenshots.
extension Canvas {
    /// Saves the frame on the screen as a PNG.
    func writePNG(_ path: String) throws {
        try frame.writePNG(path)
    }

    /// The frame on the screen as a PNG, as a person sees it (rotation applied): what the
    /// last `endFrame` presented, kept in the frame's pixels.
    public func screenshotPNG() throws -> Data {
        try frame.png("a screenshot")
    }
}
