import CSDL2
import CX11
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
        let opaque = try readFrame()
        defer { SDL_FreeSurface(opaque) }
        do {
            return try PNGEncoder.encode(opaque.pointee.pixels, width: Int(opaque.pointee.w), height: Int(opaque.pointee.h),
                                         pitch: Int(opaque.pointee.pitch))
        } catch {
            throw DisplayError.sdl("a screenshot", error.explained)
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
