import CSDL2
import CX11
import FoundationEssentials
import SplashCore
import SplashServices

/// A frame's life: begun on the layout-sized surface, its pictures kept or let go, then
/// presented (turned onto the output when rotated), written as a snapshot when asked.
extension Canvas {
    /// Starts a frame and returns what to draw it on (layout-sized; turned onto the output
    /// at `endFrame` when rotated).
    @discardableResult
    public func beginFrame() -> Surface {
        surface.textRuns.removeAll(keepingCapacity: true)
        if rotation != .none {
            if rotationTarget == nil {
                let size = layoutSize
                rotationTarget = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                                   Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
                                                   Int32(size.width), Int32(size.height))
            }
            SDL_SetRenderTarget(renderer, rotationTarget)
        }
        return surface
    }

    /// Hands over a picture already decoding, for the frame that will show it.
    public func handOver(_ picture: PendingPicture) {
        shelf.handOver(picture)
    }

    /// Frees decoded pictures other than `paths`.
    public func releasePictures(except paths: Set<String>) {
        shelf.release(except: paths)
        surface.releaseTextures(except: paths)
    }

    /// Finishes a frame: turns it onto the output, writes `snapshotPath` as PNG when given,
    /// and presents it. `damage` is the only part that changed since the last frame, in
    /// layout pixels (nil: all of it); only it is copied to the screen.
    public func endFrame(snapshotPath: String?, damage: Rect? = nil) throws {
        var damage = damage
        if rotation != .none, let rotationTarget {
            damage = nil
            SDL_SetRenderTarget(renderer, nil)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
            SDL_RenderClear(renderer)
            let layout = layoutSize
            var dst = SDL_Rect(x: Int32((outputSize.width - layout.width) / 2),
                               y: Int32((outputSize.height - layout.height) / 2),
                               w: Int32(layout.width), h: Int32(layout.height))
            SDL_RenderCopyEx(renderer, rotationTarget, nil, &dst, Double(rotation.rawValue), nil, SDL_FLIP_NONE)
        }
        if let snapshotPath { try writePNG(snapshotPath) }
        if window == nil, let windowPixels {
            SDL_RenderFlush(renderer)
            if !suspended { try console?.present(windowPixels, damage: damage) }
        } else if windowPixels != nil {
            SDL_RenderFlush(renderer)
            if let damage {
                var rect = SDL_Rect(damage)
                SDL_UpdateWindowSurfaceRects(window, &rect, 1)
            } else {
                SDL_UpdateWindowSurface(window)
            }
        } else {
            SDL_RenderPresent(renderer)
        }
    }

    /// Keeps what the frame being drawn shows in `rect` (the picture under the pill, before
    /// the pill is drawn), as `key`; false where frames are not drawn in software
    /// straight onto their pixels (rotated, SDL's KMSDRM), where a tick redraws everything.
    @discardableResult
    public func keepUnder(_ rect: Rect, key: String) -> Bool {
        underPill = nil
        guard rotation == .none, let pixels = surface.pixels else { return false }
        surface.flush()
        underPill = SavedRegion(of: pixels, rect: rect, key: key)
        return underPill != nil
    }

    /// Puts back what `keepUnder` kept as `key` in `rect`, to draw over it again; false
    /// when nothing was kept for it (the next frame is then drawn whole).
    public func restoreUnder(_ rect: Rect, key: String) -> Bool {
        guard let kept = underPill, kept.key == key, kept.rect == rect, rotation == .none,
              let pixels = surface.pixels else { return false }
        surface.flush()
        kept.restore(onto: pixels)
        return true
    }
}
