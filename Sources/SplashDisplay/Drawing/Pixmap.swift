import CPixman
import Glibc
import SplashCore

/// Pixels in memory that every screen is drawn on and every picture is held in, drawn on
/// with pixman: fills, copies, scaled copies (bilinear), text in any colour through its
/// coverage, and a frame turned onto another. The same code draws on the console, in a
/// window and headless, so a screen's pixels do not depend on where it is shown.
///
/// Three layouts: 32-bit with the alpha byte unused (B, G, R, X in memory: the frames, as
/// KMS dumb buffers and most windows take them), 32-bit with premultiplied alpha (a picture
/// with transparency), and 24-bit (B, G, R: an opaque picture as the decoders make it).
final class Pixmap {
    /// How a pixel is laid out.
    enum Format: Equatable {
        /// B, G, R, unused: XRGB8888 little-endian.
        case xrgb32
        /// B, G, R, A with the colour premultiplied by A: ARGB8888 little-endian.
        case argb32
        /// B, G, R.
        case rgb24

        var bytesPerPixel: Int { self == .rgb24 ? 3 : 4 }

        fileprivate var code: pixman_format_code_t {
            switch self {
            case .xrgb32: PIXMAN_x8r8g8b8
            case .argb32: PIXMAN_a8r8g8b8
            case .rgb24: PIXMAN_r8g8b8
            }
        }
    }

    let width: Int
    let height: Int
    /// Bytes from one row to the next (a multiple of 4, as pixman asks).
    let pitch: Int
    let format: Format
    let pixels: UnsafeMutableRawPointer
    fileprivate let image: OpaquePointer
    private let owned: Bool
    /// Whether the pixels are someone else's (`init(borrowing:…)`).
    var borrowed: Bool { !owned }

    var size: Size { Size(width: width, height: height) }
    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    /// Whether pixels may be transparent.
    var hasAlpha: Bool { format == .argb32 }

    /// New pixels, all zero (black; transparent where there is alpha); nil when memory or
    /// the size will not do.
    convenience init?(width: Int, height: Int, format: Format) {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return nil }
        let pitch = (width * format.bytesPerPixel + 3) & ~3
        guard let memory = calloc(height, pitch) else { return nil }
        self.init(memory, width: width, height: height, pitch: pitch, format: format, owned: true)
    }

    /// Pixels someone else keeps (a mapped buffer, a window's framebuffer), which must
    /// outlive this; `pitch` a multiple of 4.
    convenience init?(borrowing memory: UnsafeMutableRawPointer, width: Int, height: Int, pitch: Int, format: Format) {
        guard width > 0, height > 0, pitch % 4 == 0, pitch >= width * format.bytesPerPixel else { return nil }
        self.init(memory, width: width, height: height, pitch: pitch, format: format, owned: false)
    }

    /// pixman's image of `memory`; `owned` memory is freed with it (and at once when
    /// pixman will not take it).
    private init?(_ memory: UnsafeMutableRawPointer, width: Int, height: Int, pitch: Int, format: Format, owned: Bool) {
        guard let image = pixman_image_create_bits(format.code, Int32(width), Int32(height),
                                                   memory.assumingMemoryBound(to: UInt32.self), Int32(pitch)) else {
            if owned { free(memory) }
            return nil
        }
        self.width = width
        self.height = height
        self.pitch = pitch
        self.format = format
        pixels = memory
        self.image = image
        self.owned = owned
    }

    deinit {
        pixman_image_unref(image)
        if owned { free(pixels) }
    }

    /// pixman's colour: 16 bits a channel, premultiplied.
    private static func color(_ c: RGBColor, alpha: UInt8) -> pixman_color_t {
        let a = UInt32(alpha)
        func channel(_ v: UInt8) -> UInt16 { UInt16(UInt32(v) * a / 255 * 257) }
        return pixman_color_t(red: channel(c.red), green: channel(c.green), blue: channel(c.blue), alpha: UInt16(a * 257))
    }

    /// Fills `rects` (nil: everything) with `color`, over what is there at `alpha`.
    func fill(_ rects: [Rect]? = nil, _ c: RGBColor, alpha: UInt8 = 255) {
        var color = Self.color(c, alpha: alpha)
        var boxes = (rects ?? [bounds]).compactMap { r -> pixman_box32_t? in
            let clipped = r.clipped(to: bounds)
            guard clipped.width > 0, clipped.height > 0 else { return nil }
            return pixman_box32_t(x1: Int32(clipped.x), y1: Int32(clipped.y), x2: Int32(clipped.maxX), y2: Int32(clipped.maxY))
        }
        guard !boxes.isEmpty else { return }
        _ = pixman_image_fill_boxes(alpha == 255 ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, image, &color, Int32(boxes.count), &boxes)
    }

    /// Copies `source` (nil: all) of `picture` to `origin`, unscaled, converting its
    /// layout; `blend`: over what is there by its alpha.
    func copy(_ picture: Pixmap, from source: Rect? = nil, to origin: Point = Point(x: 0, y: 0), blend: Bool = false) {
        let from = (source ?? picture.bounds).clipped(to: picture.bounds)
        guard from.width > 0, from.height > 0 else { return }
        composite(picture, blend: blend, at: (from.x, from.y),
                  into: Rect(x: origin.x + (from.x - (source?.x ?? 0)), y: origin.y + (from.y - (source?.y ?? 0)),
                             width: from.width, height: from.height))
    }

    /// Draws `source` of `picture` scaled into `destination` (bilinear, the edges
    /// repeated rather than faded); `blend`: over what is there by its alpha.
    func draw(_ picture: Pixmap, from source: Rect, to destination: Rect, blend: Bool = false) {
        guard source.width > 0, source.height > 0, destination.width > 0, destination.height > 0 else { return }
        if source.width == destination.width, source.height == destination.height {
            return copy(picture, from: source, to: Point(x: destination.x, y: destination.y), blend: blend)
        }
        let sx = Double(source.width) / Double(destination.width)
        let sy = Double(source.height) / Double(destination.height)
        let transform = pixman_transform(matrix: ((Self.fixed(sx), 0, Self.fixed(Double(source.x))),
                                                  (0, Self.fixed(sy), Self.fixed(Double(source.y))),
                                                  (0, 0, Self.fixed(1))))
        composite(picture, blend: blend, through: transform, filter: PIXMAN_FILTER_BILINEAR, edges: PIXMAN_REPEAT_PAD,
                  into: destination)
    }

    /// Draws a line of text's coverage with its top-left at `origin`, in `color` at `alpha`.
    func draw(_ mask: TextMask, at origin: Point, _ c: RGBColor, alpha: UInt8 = 255) {
        guard mask.width > 0, mask.height > 0 else { return }
        var color = Self.color(c, alpha: alpha)
        guard let solid = pixman_image_create_solid_fill(&color) else { return }
        defer { pixman_image_unref(solid) }
        mask.coverage.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress,
                  let coverage = pixman_image_create_bits(PIXMAN_a8, Int32(mask.width), Int32(mask.height),
                                                          UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: UInt32.self),
                                                          Int32(mask.stride))
            else { return }
            defer { pixman_image_unref(coverage) }
            pixman_image_composite32(PIXMAN_OP_OVER, solid, coverage, image, 0, 0, 0, 0, Int32(origin.x), Int32(origin.y),
                                     Int32(mask.width), Int32(mask.height))
        }
    }

    /// Draws `frame` (laid out upright) turned clockwise by `rotation`, centred on these pixels.
    func drawTurned(_ frame: Pixmap, by rotation: Rotation) {
        let w = Double(frame.width), h = Double(frame.height)
        // From a pixel of the turned frame back to the upright one.
        let matrix: ((Int32, Int32, Int32), (Int32, Int32, Int32)) = switch rotation {
        case .none: ((Self.fixed(1), 0, 0), (0, Self.fixed(1), 0))
        case .quarter: ((0, Self.fixed(1), 0), (Self.fixed(-1), 0, Self.fixed(h)))
        case .half: ((Self.fixed(-1), 0, Self.fixed(w)), (0, Self.fixed(-1), Self.fixed(h)))
        case .threeQuarters: ((0, Self.fixed(-1), Self.fixed(w)), (Self.fixed(1), 0, 0))
        }
        let turned = rotation.logicalSize(for: frame.size)
        composite(frame, blend: false, through: pixman_transform(matrix: (matrix.0, matrix.1, (0, 0, Self.fixed(1)))),
                  into: Rect(x: (width - turned.width) / 2, y: (height - turned.height) / 2, width: turned.width,
                             height: turned.height))
    }

    /// Composites `picture` into `target` of these pixels, replacing what is there or, with
    /// `blend`, over it by the picture's alpha. The picture's pixels are read from `origin`
    /// on, or through `transform` (from a target pixel, relative to the target's corner, to
    /// the picture's) with `filter`, its edges extended as `edges` says; the picture is left
    /// with no transform, as every drawing finds it.
    private func composite(_ picture: Pixmap, blend: Bool, at origin: (x: Int, y: Int) = (0, 0),
                           through transform: pixman_transform? = nil, filter: pixman_filter_t = PIXMAN_FILTER_NEAREST,
                           edges: pixman_repeat_t = PIXMAN_REPEAT_NONE, into target: Rect) {
        if var transform {
            pixman_image_set_transform(picture.image, &transform)
        }
        defer { pixman_image_set_transform(picture.image, nil) }
        pixman_image_set_filter(picture.image, filter, nil, 0)
        pixman_image_set_repeat(picture.image, edges)
        pixman_image_composite32(blend && picture.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, picture.image, nil, image,
                                 Int32(origin.x), Int32(origin.y), 0, 0, Int32(target.x), Int32(target.y),
                                 Int32(target.width), Int32(target.height))
    }

    /// Multiplies each pixel's colour by its alpha, as pixman draws transparency: what a
    /// decoder gives (straight alpha) becomes what is drawn.
    func premultiply() {
        guard format == .argb32 else { return }
        for row in 0..<height {
            let line = (pixels + row * pitch).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let p = line + x * 4
                let a = UInt32(p[3])
                guard a != 255 else { continue }
                p[0] = UInt8((UInt32(p[0]) * a + 127) / 255)
                p[1] = UInt8((UInt32(p[1]) * a + 127) / 255)
                p[2] = UInt8((UInt32(p[2]) * a + 127) / 255)
            }
        }
    }

    /// The pixel at (`x`, `y`) as 0xAARRGGBB (0xFF alpha where there is none).
    func pixel(x: Int, y: Int) -> UInt32 {
        let p = (pixels + y * pitch + x * format.bytesPerPixel).assumingMemoryBound(to: UInt8.self)
        let alpha: UInt32 = format == .argb32 ? UInt32(p[3]) : 255
        return alpha << 24 | UInt32(p[2]) << 16 | UInt32(p[1]) << 8 | UInt32(p[0])
    }

    private static func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
}
