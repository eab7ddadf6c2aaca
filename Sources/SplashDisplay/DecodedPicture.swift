import CSDL2
import SplashCore

/// An opaque picture kept as decoded and drawn straight onto the window's pixels.
///
/// It starts as decoded: a JPEG already scaled down in the decoder to about the size it is
/// drawn at, a PNG at full size. When its first draw is smaller, it is scaled down once
/// (bilinear) into the frame's pixel format, a band of rows at a time, and the larger copy
/// is freed: a picture is never held twice in full, and redrawing it (the countdown, once
/// a second) is a plain copy.
final class DecodedPicture {
    /// The original picture's size; placements are computed on it.
    let size: Size
    private var surface: UnsafeMutablePointer<SDL_Surface>
    /// The pixels held now (full size, or scaled down by `held(_:)`'s factor).
    var pixels: UnsafeMutablePointer<SDL_Surface> { surface }
    /// Pixels held per pixel of the original (1 for a whole picture).
    private var scale: Double
    /// Pixels held per pixel of the original: a draw that needs more decodes the picture again.
    var heldScale: Double { scale }
    /// Only the first draw scales down what is held (the splash, the largest); later,
    /// smaller draws (the detail screen's picture) scale from it without replacing it.
    private var drawn = false

    /// Takes ownership of `surface`, decoded from a picture of `original` size (the
    /// surface's own size when nil).
    init(_ surface: UnsafeMutablePointer<SDL_Surface>, original: Size? = nil) {
        self.surface = surface
        size = original ?? Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        scale = Double(surface.pointee.w) / Double(max(1, size.width))
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
        if !drawn, wanted < scale, source == Rect(x: 0, y: 0, width: size.width, height: size.height),
           Self.downscale(surface, into: frame, at: destination) {
            // The whole picture went straight onto the frame, scaled. What is held from now
            // on is that part of the frame, copied once the full-size picture is freed: a
            // big picture and its smaller copy never take memory at the same time.
            SDL_FreeSurface(surface)
            surface = Self.copy(destination, of: frame)
            scale = wanted
            return true
        }
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
        // Scaling (bilinear) needs both sides in the frame's format. Scaled down, a band of
        // rows is converted at a time (the 24-bit picture kept as it is: converting it whole
        // would hold both at once); scaled up (rare), the picture is converted.
        if surface.pointee.format.pointee.format != frame.pointee.format.pointee.format {
            if Self.downscale(surface, from: held(source), into: frame, at: destination) { return true }
            guard let converted = SDL_ConvertSurface(surface, frame.pointee.format, 0) else { return false }
            SDL_FreeSurface(surface)
            surface = converted
        }
        return SDL_SoftStretchLinear(surface, &src, frame, &dst) == 0
    }

    /// A new surface of `width` x `height` in `format`'s pixel format, cleared.
    static func blank(width: Int, height: Int, like format: UnsafeMutablePointer<SDL_PixelFormat>)
        -> UnsafeMutablePointer<SDL_Surface>? {
        SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), Int32(format.pointee.BitsPerPixel),
                                       format.pointee.format)
    }

    /// A new surface holding `rect` of `frame` (a 1x1 black one if memory runs out: the
    /// frame on the screen is right, and the next draw shows the loss rather than crashing).
    private static func copy(_ rect: Rect, of frame: UnsafeMutablePointer<SDL_Surface>) -> UnsafeMutablePointer<SDL_Surface> {
        guard let held = blank(width: rect.width, height: rect.height, like: frame.pointee.format)
        else { return SDL_CreateRGBSurfaceWithFormat(0, 1, 1, 32, SDL_PIXELFORMAT_RGB888.rawValue) }
        var mode = SDL_BLENDMODE_NONE
        SDL_GetSurfaceBlendMode(frame, &mode)
        SDL_SetSurfaceBlendMode(frame, SDL_BLENDMODE_NONE)
        var from = SDL_Rect(rect)
        splash_blit_surface(frame, &from, held, nil)
        SDL_SetSurfaceBlendMode(frame, mode)
        return held
    }

    /// `source` (in the original's pixels) in the pixels held now.
    func held(_ source: Rect) -> Rect {
        var rect = source.scaled(by: scale)
        rect.width = min(rect.width, Int(surface.pointee.w) - rect.x)
        rect.height = min(rect.height, Int(surface.pointee.h) - rect.y)
        return rect
    }

    /// `source` scaled down to `size` in `format`, converted and scaled a band of rows at a
    /// time. Bands are cut where source and destination rows line up exactly (their heights
    /// keep the picture's ratio), so each band is scaled as the whole would be.
    static func downscale(_ source: UnsafeMutablePointer<SDL_Surface>, to size: Size,
                          format: UnsafeMutablePointer<SDL_PixelFormat>) -> UnsafeMutablePointer<SDL_Surface>? {
        guard format.pointee.BytesPerPixel == 4, let out = blank(width: size.width, height: size.height, like: format)
        else { return nil }
        guard downscale(source, into: out, at: Rect(x: 0, y: 0, width: size.width, height: size.height)) else {
            SDL_FreeSurface(out)
            return nil
        }
        return out
    }

    /// Scales `part` of `source` (the whole by default) down into `rect` of `out` (a 32-bit
    /// surface), a band of rows at a time; false when it cannot (a bigger rect, a rect off
    /// `out`, a part off `source`).
    static func downscale(_ source: UnsafeMutablePointer<SDL_Surface>, from part: Rect? = nil,
                          into out: UnsafeMutablePointer<SDL_Surface>, at rect: Rect) -> Bool {
        let whole = part ?? Rect(x: 0, y: 0, width: Int(source.pointee.w), height: Int(source.pointee.h))
        let width = whole.width
        let height = whole.height
        guard let format = out.pointee.format, format.pointee.BytesPerPixel == 4,
              width > 0, height > 0, whole.x >= 0, whole.y >= 0,
              whole.maxX <= Int(source.pointee.w), whole.maxY <= Int(source.pointee.h),
              rect.width > 0, rect.height > 0, rect.width <= width, rect.height <= height,
              rect.x >= 0, rect.y >= 0, rect.maxX <= Int(out.pointee.w), rect.maxY <= Int(out.pointee.h)
        else { return false }
        let common = gcd(height, rect.height)
        let unitOut = rect.height / common
        let unitIn = height / common
        let units = max(1, 16 / unitOut)
        let bandIn = min(height, unitIn * units)
        guard let strip = blank(width: width, height: bandIn, like: format) else { return false }
        defer { SDL_FreeSurface(strip) }
        SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
        var (inRow, outRow) = (0, 0)
        while outRow < rect.height {
            let rowsIn = min(bandIn, height - inRow)
            let rowsOut = min(unitOut * units, rect.height - outRow)
            var from = SDL_Rect(x: Int32(whole.x), y: Int32(whole.y + inRow), w: Int32(width), h: Int32(rowsIn))
            var into = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(rowsIn))
            var band = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(rowsIn))
            var target = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y + outRow), w: Int32(rect.width), h: Int32(rowsOut))
            guard splash_blit_surface(source, &from, strip, &into) == 0,
                  SDL_SoftStretchLinear(strip, &band, out, &target) == 0
            else { return false }
            inRow += rowsIn
            outRow += rowsOut
        }
        return true
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
