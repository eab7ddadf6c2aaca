import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// Decoded pixels in a `Pixmap`: what the display decodes into, so that a picture is drawn
/// from the memory it was decoded into. A picture with an alpha channel blends.
struct PixmapPixels: PixelDestination {
    /// The pixels, the holder's.
    let pixmap: Pixmap

    static func make(width: Int, height: Int, format: PixelFormat) throws -> PixmapPixels {
        let layout: Pixmap.Format = switch format {
        case .bgr24: .rgb24
        // B, G, R, A in memory: premultiplied once decoded (`ImageDecoder.pixmap`).
        case .bgra32: .argb32
        }
        guard let pixmap = Pixmap(width: width, height: height, format: layout) else {
            throw DisplayError.sdl("allocating a \(width)×\(height) picture", "not enough memory")
        }
        return PixmapPixels(pixmap: pixmap)
    }

    var pixels: UnsafeMutableRawPointer { pixmap.pixels }
    var pitch: Int { pixmap.pitch }
    func discard() {}
}

/// A picture the display decoded, in pixels of its own.
typealias DecodedPixmap = ImageDecoder.Decoded<PixmapPixels>

extension ImageDecoder.Decoded where Pixels == PixmapPixels {
    /// The pixels, premultiplied where they have alpha.
    var pixmap: Pixmap { pixels.pixmap }
}

extension ImageDecoder {
    /// Decodes the file at `path` with at least `scale` pixels per pixel of the original,
    /// transparency premultiplied, ready to draw.
    static func pixmap(_ path: String, scale: Double = 1) throws -> DecodedPixmap {
        try pixmap(data: UntrustedFile.read(path), scale: scale)
    }

    /// Decodes a picture's bytes (a GIF's first frame by giflib), like `pixmap(_:scale:)`.
    static func pixmap(data: Data, scale: Double = 1) throws -> DecodedPixmap {
        let decoded = ImageHeader.kind(of: [UInt8](data.prefix(16))) == .gif
            ? try firstFrameOfGIF(data) : try decode(data, scale: scale, into: PixmapPixels.self)
        decoded.pixmap.premultiply()
        return decoded
    }

    /// The first frame of a GIF (its poster: an animated one plays through the media
    /// process), by giflib (`GIFPoster`). Held to the picture limits by its header, and its
    /// first frame to its canvas, first.
    static func firstFrameOfGIF(_ data: Data) throws -> DecodedPixmap {
        let bytes = [UInt8](data)
        let header = try ImageHeader.parse(Array(bytes.prefix(16)))
        let frame = try ImageHeader.checkGIFFirstFrame(bytes, header: header)
        return try GIFPoster.decode(bytes, header: header, frame: frame, into: PixmapPixels.self)
    }
}
