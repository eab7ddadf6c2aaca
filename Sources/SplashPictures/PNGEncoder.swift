import CPNG
import FoundationEssentials

/// Writes 24-bit pixels (B, G, R bytes, as the display holds them) as a PNG, through libpng's simplified API: the
/// display's snapshots and screenshots.
public enum PNGEncoder {
    /// A PNG could not be written.
    public struct Failure: LocalizedError {
        public var reason: String
        public var errorDescription: String? { "cannot write the PNG: \(reason)" }
    }

    /// The PNG of `width`×`height` pixels at `bgr`, `pitch` bytes a row.
    public static func encode(_ bgr: UnsafeRawPointer, width: Int, height: Int, pitch: Int) throws -> Data {
        var image = png_image()
        splash_png_prepare(&image)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = splash_png_format_bgr()
        defer { png_image_free(&image) }
        // Room for the PNG: never more than the pixels plus its chunks' overhead.
        var size = pitch * height + (1 << 20)
        var out = Data(count: size)
        let ok = out.withUnsafeMutableBytes { raw in
            png_image_write_to_memory(&image, raw.baseAddress, &size, 0, bgr, png_int_32(pitch), nil)
        }
        guard ok != 0, splash_png_failed(&image) == 0 else {
            throw Failure(reason: withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return out.prefix(size)
    }
}
