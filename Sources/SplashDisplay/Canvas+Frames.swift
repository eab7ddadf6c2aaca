import CSDL2
import CX11
import Foundation
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
    /// and presents it.
    public func endFrame(snapshotPath: String?) throws {
        if rotation != .none, let rotationTarget {
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
            if !suspended { try console?.present(windowPixels) }
        } else if windowPixels != nil {
            SDL_RenderFlush(renderer)
            SDL_UpdateWindowSurface(window)
        } else {
            SDL_RenderPresent(renderer)
        }
    }
}
