import Glibc
import FoundationEssentials
import SplashCore

/// Decoded pixels in memory of their own, freed with the buffer: what the network process
/// decodes into (to check a picture and make its thumbnail), with no SDL.
public final class PixelBuffer: PixelDestination {
    /// The size in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The layout of each pixel.
    public let format: PixelFormat
    /// Bytes from the start of one row to the next (rows are not padded).
    public let pitch: Int
    /// The first byte of the first row.
    public let pixels: UnsafeMutableRawPointer

    /// An uninitialised buffer of this size and layout.
    public init(width: Int, height: Int, format: PixelFormat) throws {
        let pitch = width * format.bytesPerPixel
        guard width > 0, height > 0, let memory = malloc(pitch * height) else {
            throw ImageError.undecodable("no memory for a \(width)×\(height) picture")
        }
        self.width = width
        self.height = height
        self.format = format
        self.pitch = pitch
        pixels = memory
    }

    /// A new buffer for a picture of this size and layout (`init`); throws without memory.
    public static func make(width: Int, height: Int, format: PixelFormat) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: format)
    }

    /// Nothing to do: the memory goes with the buffer.
    public func discard() {}

    /// The blue, green and red of the pixel at (`x`, `y`).
    public func color(x: Int, y: Int) -> (b: UInt8, g: UInt8, r: UInt8) {
        let p = pixels.advanced(by: y * pitch + x * format.bytesPerPixel).assumingMemoryBound(to: UInt8.self)
        return (p[0], p[1], p[2])
    }

    deinit { free(pixels) }
}
