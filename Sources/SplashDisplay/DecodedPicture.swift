import CSDL2
import SplashCore

/// An opaque picture kept as decoded and drawn straight onto the window's pixels.
///
/// It starts at full size in SDL_image's format. When its first draw is smaller, it is
/// scaled down once (bilinear) into the frame's pixel format, a band of rows at a time, and
/// the full-size copy is freed: a 4K picture is never held twice in full, and redrawing it
/// (the countdown, once a second) is a plain copy.
final class DecodedPicture {
    /// The original picture's size; placements are computed on it.
    let size: Size
    private var surface: UnsafeMutablePointer<SDL_Surface>
    /// The pixels held now (full size, or scaled down by `held(_:)`'s factor).
    var pixels: UnsafeMutablePointer<SDL_Surface> { surface }
    /// Pixels held per pixel of the original (1 until scaled down).
    private var scale = 1.0
    /// Only the first draw scales down what is held (the splash, the largest); later,
    /// smaller draws (the detail screen's picture) scale from it without replacing it.
    private var drawn = false

    /// Takes ownership of `surface`.
    init(_ surface: UnsafeMutablePointer<SDL_Surface>) {
        self.surface = surface
        size = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    }

    deinit { SDL_FreeSurface(surface) }

    /// Whether `surface` has transparency (an alpha channel or a colour key): such pictures
    /// need blending, which the straight copy does not do.
    static func hasTransparency(_ surface: UnsafeMutablePointer<SDL_Surface>) -> Bool {
        (surface.pointee.format?.pointee.Amask ?? 0) != 0 || SDL_HasColorKey(surface) == SDL_TRUE
    }

    /// Draws the part `source` (in the original's pixels) into `destination` on `frame`;
    /// false when SDL refuses (a rectangle off the frame, a frame format it cannot scale into).
    func draw(_ source: Rect, to destination: Rect, on frame: UnsafeMutablePointer<SDL_Surface>) -> Bool {
        let wanted = Double(destination.width) / Double(max(1, source.width))
        defer { drawn = true }
        if !drawn, wanted < scale {
            let target = Size(width: max(1, Int((Double(size.width) * wanted).rounded())),
                              height: max(1, Int((Double(size.height) * wanted).rounded())))
            if let smaller = Self.downscale(surface, to: target, format: frame.pointee.format) {
                SDL_FreeSurface(surface)
                surface = smaller
                scale = wanted
            }
        }
        var src = SDL_Rect(held(source))
        var dst = SDL_Rect(destination)
        if src.w == dst.w, src.h == dst.h {
            return splash_blit_surface(surface, &src, frame, &dst) == 0
        }
        // Scaling (bilinear) needs both sides in the frame's format.
        if surface.pointee.format.pointee.format != frame.pointee.format.pointee.format {
            guard let converted = SDL_ConvertSurface(surface, frame.pointee.format, 0) else { return false }
            SDL_FreeSurface(surface)
            surface = converted
        }
        return SDL_SoftStretchLinear(surface, &src, frame, &dst) == 0
    }

    /// `source` (in the original's pixels) in the pixels held now.
    func held(_ source: Rect) -> Rect {
        let x = Int((Double(source.x) * scale).rounded())
        let y = Int((Double(source.y) * scale).rounded())
        return Rect(x: x, y: y,
                    width: min(Int((Double(source.width) * scale).rounded()), Int(surface.pointee.w) - x),
                    height: min(Int((Double(source.height) * scale).rounded()), Int(surface.pointee.h) - y))
    }

    /// `source` scaled down to `size` in `format`, converted and scaled a band of rows at a
    /// time. Bands are cut where source and destination rows line up exactly (their heights
    /// keep the picture's ratio), so each band is scaled as the whole would be.
    static func downscale(_ source: UnsafeMutablePointer<SDL_Surface>, to size: Size,
                          format: UnsafeMutablePointer<SDL_PixelFormat>) -> UnsafeMutablePointer<SDL_Surface>? {
        let width = Int(source.pointee.w)
        let height = Int(source.pointee.h)
        let depth = Int32(format.pointee.BitsPerPixel)
        guard size.width <= width, size.height <= height, format.pointee.BytesPerPixel == 4,
              let out = SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), depth, format.pointee.format)
        else { return nil }
        let common = gcd(height, size.height)
        let unitOut = size.height / common
        let unitIn = height / common
        let units = max(1, 64 / unitOut)
        let bandIn = min(height, unitIn * units)
        guard let strip = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(bandIn), depth, format.pointee.format) else {
            SDL_FreeSurface(out)
            return nil
        }
        defer { SDL_FreeSurface(strip) }
        SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
        var (inRow, outRow) = (0, 0)
        while outRow < size.height {
            let rowsIn = min(bandIn, height - inRow)
            let rowsOut = min(unitOut * units, size.height - outRow)
            var from = SDL_Rect(x: 0, y: Int32(inRow), w: Int32(width), h: Int32(rowsIn))
            var into = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(rowsIn))
            var band = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(rowsIn))
            var target = SDL_Rect(x: 0, y: Int32(outRow), w: Int32(size.width), h: Int32(rowsOut))
            guard splash_blit_surface(source, &from, strip, &into) == 0,
                  SDL_SoftStretchLinear(strip, &band, out, &target) == 0
            else {
                SDL_FreeSurface(out)
                return nil
            }
            inRow += rowsIn
            outRow += rowsOut
        }
        return out
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
