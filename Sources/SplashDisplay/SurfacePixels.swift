import CSDL2
import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// Decoded pixels in an SDL surface: what the display decodes into, so that a picture is
/// drawn from the memory it was decoded into. A surface with an alpha channel blends.
struct SurfacePixels: PixelDestination {
    /// The surface, the holder's to free.
    let surface: UnsafeMutablePointer<SDL_Surface>

    static func make(width: Int, height: Int, format: PixelFormat) throws -> SurfacePixels {
        let (depth, layout) = switch format {
        case .bgr24: (Int32(24), SDL_PIXELFORMAT_BGR24.rawValue)
        // B, G, R, A in memory is SDL's ARGB8888 on a little-endian machine.
        case .bgra32: (Int32(32), SDL_PIXELFORMAT_ARGB8888.rawValue)
        }
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), depth, layout) else {
            throw DisplayError.sdl("allocating a \(width)×\(height) picture", sdlErrorText())
        }
        return SurfacePixels(surface: surface)
    }

    var pixels: UnsafeMutableRawPointer { surface.pointee.pixels }
    var pitch: Int { Int(surface.pointee.pitch) }
    func discard() { SDL_FreeSurface(surface) }
}

/// A picture the display decoded, in a surface of its own.
typealias DecodedSurface = ImageDecoder.Decoded<SurfacePixels>

extension ImageDecoder.Decoded where Pixels == SurfacePixels {
    /// The surface holding the pixels, the caller's to free or keep.
    var surface: UnsafeMutablePointer<SDL_Surface> { pixels.surface }
}

extension ImageDecoder {
    /// Decodes the file at `path` into a new surface, with at least `scale` pixels per pixel
    /// of the original.
    static func surface(_ path: String, scale: Double = 1) throws -> DecodedSurface {
        // Read once: a GIF's first frame goes to giflib, the rest to the decoders.
        let data = try UntrustedFile.read(path)
        if ImageHeader.kind(of: [UInt8](data.prefix(16))) == .gif { return try firstFrameOfGIF(data) }
        return try decode(data, scale: scale, into: SurfacePixels.self)
    }

    /// The first frame of a GIF (its poster: an animated one plays through the media
    /// process), by giflib (`GIFPoster`). Held to the picture limits by its header, and its
    /// first frame to its canvas, first.
    static func firstFrameOfGIF(_ data: Data) throws -> DecodedSurface {
        let bytes = [UInt8](data)
        let header = try ImageHeader.parse(Array(bytes.prefix(16)))
        let frame = try ImageHeader.checkGIFFirstFrame(bytes, header: header)
        return try GIFPoster.decode(bytes, header: header, frame: frame, into: SurfacePixels.self)
    }
}

/// SDL's last error message.
func sdlErrorText() -> String {
    guard let p = SDL_GetError() else { return "unknown SDL error" }
    let s = String(cString: p)
    return s.isEmpty ? "unknown SDL error" : s
}
