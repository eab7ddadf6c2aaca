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
        // Read once: a GIF's first frame goes to SDL_image, the rest to the decoders.
        let data = try UntrustedFile.read(path)
        if ImageHeader.kind(of: [UInt8](data.prefix(16))) == .gif { return try firstFrameOfGIF(data) }
        return try decode(data, scale: scale, into: SurfacePixels.self)
    }

    /// The first frame of a GIF (its poster: an animated one plays through the media
    /// process), by SDL_image's GIF loader — asked for by name, never a guessing loader —
    /// in 32-bit pixels, its transparent colour transparent. Held to the picture limits
    /// by its header, and its first frame to its canvas, first.
    static func firstFrameOfGIF(_ data: Data) throws -> DecodedSurface {
        let bytes = [UInt8](data)
        let header = try ImageHeader.parse(Array(bytes.prefix(16)))
        let frame = try ImageHeader.checkGIFFirstFrame(bytes, header: header)
        let loaded: UnsafeMutablePointer<SDL_Surface>? = data.withUnsafeBytes { raw in
            guard let rw = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { SDL_RWclose(rw) }
            return IMG_LoadGIF_RW(rw)
        }
        guard let loaded else { throw ImageError.undecodable("GIF: \(sdlErrorText())") }
        defer { SDL_FreeSurface(loaded) }
        // SDL_image gives the frame alone; it goes where its descriptor puts it on the canvas,
        // the rest of the canvas transparent.
        guard frame.width == Int(loaded.pointee.w), frame.height == Int(loaded.pointee.h),
              let converted = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
            throw ImageError.undecodable("GIF: its first frame decoded at \(loaded.pointee.w)×\(loaded.pointee.h), "
                                         + "its descriptor says \(frame.width)×\(frame.height)")
        }
        defer { SDL_FreeSurface(converted) }
        let size = Size(width: header.width, height: header.height)
        let canvas = try SurfacePixels.make(width: size.width, height: size.height, format: .bgra32)
        SDL_SetSurfaceBlendMode(converted, SDL_BLENDMODE_NONE)
        var src = SDL_Rect(x: 0, y: 0, w: Int32(frame.width), h: Int32(frame.height))
        var dst = SDL_Rect(x: Int32(frame.x), y: Int32(frame.y), w: Int32(frame.width), h: Int32(frame.height))
        SDL_UpperBlit(converted, &src, canvas.surface, &dst)
        return DecodedSurface(pixels: canvas, width: size.width, height: size.height, format: .bgra32, original: size)
    }
}

/// SDL's last error message.
func sdlErrorText() -> String {
    guard let p = SDL_GetError() else { return "unknown SDL error" }
    let s = String(cString: p)
    return s.isEmpty ? "unknown SDL error" : s
}
