import CSDL2
import SplashCore

/// The pixels of one rectangle of a frame, kept to put back: what lies under the
/// countdown pill, so that a tick redraws only the pill and the decoded picture need not
/// be kept once it is on the frame.
final class SavedRegion {
    /// Where it was, in the frame's pixels.
    let rect: Rect
    /// What the frame showed there: the picture's path, with the screen it was laid out for.
    let key: String
    private let pixels: UnsafeMutablePointer<SDL_Surface>

    /// Copies `rect` of `frame`; nil when it does not lie inside the frame or there is no
    /// memory for it.
    init?(of frame: UnsafeMutablePointer<SDL_Surface>, rect: Rect, key: String) {
        let whole = Rect(x: 0, y: 0, width: Int(frame.pointee.w), height: Int(frame.pointee.h))
        guard rect.width > 0, rect.height > 0, rect.clipped(to: whole) == rect,
              let copy = SDL_CreateRGBSurfaceWithFormat(0, Int32(rect.width), Int32(rect.height), 32,
                                                        frame.pointee.format.pointee.format)
        else { return nil }
        SDL_SetSurfaceBlendMode(frame, SDL_BLENDMODE_NONE)
        var source = SDL_Rect(rect)
        guard splash_blit_surface(frame, &source, copy, nil) == 0 else {
            SDL_FreeSurface(copy)
            return nil
        }
        self.rect = rect
        self.key = key
        pixels = copy
    }

    deinit { SDL_FreeSurface(pixels) }

    /// Puts the kept pixels back where they were on `frame`.
    func restore(onto frame: UnsafeMutablePointer<SDL_Surface>) {
        SDL_SetSurfaceBlendMode(pixels, SDL_BLENDMODE_NONE)
        var target = SDL_Rect(rect)
        splash_blit_surface(pixels, nil, frame, &target)
    }
}
