import CSDL2
import Foundation
import SplashCore
import SplashServices

/// Frames drawn ahead of time off the screen, shown with one copy.
extension Canvas {
    /// A frame drawn ahead of time off the screen; showing it is one copy.
    public final class PreparedFrame {
        fileprivate let pixels: UnsafeMutablePointer<SDL_Surface>
        fileprivate init(_ pixels: UnsafeMutablePointer<SDL_Surface>) { self.pixels = pixels }
        deinit { SDL_FreeSurface(pixels) }
    }

    /// Runs `draw` against an off-screen frame of the output's size and returns that frame;
    /// nil where frames are not drawn in software onto the window's pixels (KMSDRM, rotated).
    public func prepareFrame(_ draw: () -> Void) -> PreparedFrame? {
        guard drawsOntoWindowPixels, let windowPixels,
              let pixels = DecodedPicture.blank(width: Int(windowPixels.pointee.w), height: Int(windowPixels.pointee.h),
                                                like: windowPixels.pointee.format)
        else { return nil }
        guard let offscreen = Self.softwareRenderer(on: pixels) else {
            SDL_FreeSurface(pixels)
            return nil
        }
        // Textures belong to the renderer that made them: the window's wait aside meanwhile.
        let windowTextures = pictures.filter { if case .texture = $0.value.picture { true } else { false } }
        for path in windowTextures.keys { pictures[path] = nil }
        let onScreen = (renderer, windowPixels)
        (renderer, self.windowPixels) = (offscreen, pixels)
        draw()
        SDL_RenderFlush(offscreen)
        for (path, entry) in pictures {
            if case .texture(let texture) = entry.picture {
                SDL_DestroyTexture(texture)
                pictures[path] = nil
            }
        }
        pictures.merge(windowTextures) { mine, _ in mine }
        (renderer, self.windowPixels) = onScreen
        SDL_DestroyRenderer(offscreen)
        return PreparedFrame(pixels)
    }

    /// Copies a prepared frame onto the frame being drawn; false when it no longer fits
    /// (the output changed size).
    public func draw(_ frame: PreparedFrame) -> Bool {
        guard drawsOntoWindowPixels, let windowPixels, frame.pixels.pointee.w == windowPixels.pointee.w,
              frame.pixels.pointee.h == windowPixels.pointee.h
        else { return false }
        SDL_RenderFlush(renderer)
        SDL_SetSurfaceBlendMode(frame.pixels, SDL_BLENDMODE_NONE)
        return splash_blit_surface(frame.pixels, nil, windowPixels, nil) == 0
    }
}
