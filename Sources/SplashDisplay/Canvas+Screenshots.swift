import CSDL2
import CX11
import FoundationEssentials
import SplashCore
import SplashServices

/// Frames read back as PNG: snapshots and the control socket's screenshots.
extension Canvas {
    /// Reads the frame back and saves it as a PNG.
    func writePNG(_ path: String) throws {
        let opaque = try readFrame()
        defer { SDL_FreeSurface(opaque) }
        guard IMG_SavePNG(opaque, path) == 0 else {
            throw DisplayError.sdl("writing \(path)", sdlErrorText())
        }
    }

    /// The frame on the screen as a PNG, as a person sees it (rotation applied): what the
    /// last `endFrame` presented (the software paths keep it in the frame's pixels).
    public func screenshotPNG() throws -> Data {
        let opaque = try readFrame()
        defer { SDL_FreeSurface(opaque) }
        // Room for the PNG: never more than the pixels plus its chunks' overhead.
        let capacity = Int(opaque.pointee.pitch) * Int(opaque.pointee.h) + 1 << 20
        var buffer = [UInt8](repeating: 0, count: capacity)
        return try buffer.withUnsafeMutableBytes { raw -> Data in
            guard let rw = SDL_RWFromMem(raw.baseAddress, Int32(capacity)) else {
                throw DisplayError.sdl("a screenshot", sdlErrorText())
            }
            defer { SDL_RWclose(rw) }
            guard IMG_SavePNG_RW(opaque, rw, 0) == 0 else { throw DisplayError.sdl("a screenshot", sdlErrorText()) }
            let size = Int(SDL_RWtell(rw))
            return Data(raw.prefix(size))
        }
    }

    /// The output's pixels, read back into an opaque 24-bit surface the caller frees.
    func readFrame() throws -> UnsafeMutablePointer<SDL_Surface> {
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(outputSize.width), Int32(outputSize.height), 32,
                                                           SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { throw DisplayError.sdl("allocating a snapshot", sdlErrorText()) }
        defer { SDL_FreeSurface(surface) }
        guard SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, surface.pointee.pixels,
                                   surface.pointee.pitch) == 0
        else { throw DisplayError.sdl("reading the frame back", sdlErrorText()) }
        // Keep the PNG opaque whatever the framebuffer's alpha holds.
        SDL_SetSurfaceBlendMode(surface, SDL_BLENDMODE_NONE)
        guard let opaque = SDL_CreateRGBSurfaceWithFormat(0, surface.pointee.w, surface.pointee.h, 24,
                                                          SDL_PIXELFORMAT_RGB24.rawValue)
        else { throw DisplayError.sdl("allocating a snapshot", sdlErrorText()) }
        splash_blit_surface(surface, nil, opaque, nil)
        return opaque
    }
}
