import CSDL2
import FoundationEssentials
import SplashCore
import SplashServices

/// The drawing primitives the screens are made of: fills, rounded rectangles, text.
extension Surface {
    func setColor(_ c: RGBColor, alpha: UInt8 = 255) {
        SDL_SetRenderDrawColor(renderer, c.red, c.green, c.blue, alpha)
    }

    /// Fills the whole frame.
    public func clear(_ color: RGBColor) {
        setColor(color)
        SDL_RenderClear(renderer)
    }

    /// Fills a rectangle.
    public func fill(_ r: Rect, _ color: RGBColor, alpha: UInt8 = 255) {
        setColor(color, alpha: alpha)
        var rect = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
        SDL_RenderFillRect(renderer, &rect)
    }

    /// Fills a rectangle with rounded corners of `radius`, with anti-aliased left and right
    /// edges (one partly covered pixel per row and side).
    public func fillRoundedRect(_ r: Rect, radius: Int, _ color: RGBColor, alpha: UInt8 = 255) {
        guard r.width > 0, r.height > 0 else { return }
        let rad = Double(min(radius, r.width / 2, r.height / 2))
        var spans: [SDL_Rect] = []
        spans.reserveCapacity(r.height)
        var edges: [(y: Int32, left: Int32, right: Int32, coverage: Double)] = []
        for row in 0..<r.height {
            let cy = Double(row) + 0.5
            let dy: Double
            if cy < rad { dy = rad - cy } else if cy > Double(r.height) - rad { dy = cy - (Double(r.height) - rad) } else { dy = 0 }
            let inset = dy > 0 ? rad - (rad * rad - dy * dy).squareRoot() : 0
            let whole = Int(inset.rounded(.up))
            let y = Int32(r.y + row)
            let width = r.width - 2 * whole
            if width > 0 {
                spans.append(SDL_Rect(x: Int32(r.x + whole), y: y, w: Int32(width), h: 1))
            }
            let coverage = Double(whole) - inset
            if coverage > 0.02, whole > 0 {
                edges.append((y, Int32(r.x + whole - 1), Int32(r.maxX - whole), coverage))
            }
        }
        fill(spans: spans, edges: edges, color, alpha: alpha)
    }

    /// Fills whole-pixel spans, then the partly covered pixel at each end of a row at its coverage.
    private func fill(spans: [SDL_Rect], edges: [(y: Int32, left: Int32, right: Int32, coverage: Double)], _ color: RGBColor,
                      alpha: UInt8) {
        setColor(color, alpha: alpha)
        SDL_RenderFillRects(renderer, spans, Int32(spans.count))
        for e in edges {
            setColor(color, alpha: UInt8(Double(alpha) * e.coverage))
            SDL_RenderDrawPoint(renderer, e.left, e.y)
            SDL_RenderDrawPoint(renderer, e.right, e.y)
        }
    }

    /// Draws the outline of a rectangle with rounded corners of `radius`: a ring `width`
    /// pixels wide inside `r`, leaving what is inside it as it was, its outer edge
    /// anti-aliased as `fillRoundedRect` draws it.
    public func strokeRoundedRect(_ r: Rect, radius: Int, width: Int, _ color: RGBColor) {
        guard r.width > 2 * width, r.height > 2 * width, width > 0 else { return fillRoundedRect(r, radius: radius, color) }
        let rad = Double(min(radius, r.width / 2, r.height / 2))
        let innerRad = max(0, rad - Double(width))
        func inset(_ row: Int, height: Int, radius: Double) -> (whole: Int, exact: Double) {
            let cy = Double(row) + 0.5
            let dy: Double
            if cy < radius { dy = radius - cy } else if cy > Double(height) - radius { dy = cy - (Double(height) - radius) } else { dy = 0 }
            let exact = dy > 0 ? radius - (radius * radius - dy * dy).squareRoot() : 0
            return (Int(exact.rounded(.up)), exact)
        }
        var spans: [SDL_Rect] = []
        var edges: [(y: Int32, left: Int32, right: Int32, coverage: Double)] = []
        for row in 0..<r.height {
            let outer = inset(row, height: r.height, radius: rad)
            let y = Int32(r.y + row)
            let inner = row - width
            if inner >= 0, inner < r.height - 2 * width {
                let left = width + inset(inner, height: r.height - 2 * width, radius: innerRad).whole
                if left > outer.whole {
                    spans.append(SDL_Rect(x: Int32(r.x + outer.whole), y: y, w: Int32(left - outer.whole), h: 1))
                    spans.append(SDL_Rect(x: Int32(r.maxX - left), y: y, w: Int32(left - outer.whole), h: 1))
                }
            } else if r.width - 2 * outer.whole > 0 {
                spans.append(SDL_Rect(x: Int32(r.x + outer.whole), y: y, w: Int32(r.width - 2 * outer.whole), h: 1))
            }
            let coverage = Double(outer.whole) - outer.exact
            if coverage > 0.02, outer.whole > 0 {
                edges.append((y, Int32(r.x + outer.whole - 1), Int32(r.maxX - outer.whole), coverage))
            }
        }
        fill(spans: spans, edges: edges, color, alpha: 255)
    }

    /// Rounds the corners of what is already drawn in `r` (a picture): paints `color` (what
    /// lies around it) outside a rounded rectangle of `radius`, with one partly covered pixel
    /// per row and side, as `fillRoundedRect` draws its edges.
    public func roundCorners(of r: Rect, radius: Int, outside color: RGBColor) {
        let rad = Double(min(radius, r.width / 2, r.height / 2))
        guard rad >= 1 else { return }
        var spans: [SDL_Rect] = []
        var edges: [(y: Int32, left: Int32, right: Int32, coverage: Double)] = []
        for row in 0..<r.height {
            let cy = Double(row) + 0.5
            let dy: Double
            if cy < rad { dy = rad - cy } else if cy > Double(r.height) - rad { dy = cy - (Double(r.height) - rad) } else { continue }
            let inset = rad - (rad * rad - dy * dy).squareRoot()
            let whole = Int(inset.rounded(.down))
            let y = Int32(r.y + row)
            if whole > 0 {
                spans.append(SDL_Rect(x: Int32(r.x), y: y, w: Int32(whole), h: 1))
                spans.append(SDL_Rect(x: Int32(r.maxX - whole), y: y, w: Int32(whole), h: 1))
            }
            let coverage = inset - Double(whole)
            if coverage > 0.02 { edges.append((y, Int32(r.x + whole), Int32(r.maxX - whole - 1), coverage)) }
        }
        fill(spans: spans, edges: edges, color, alpha: 255)
    }

    /// Draws one line of text with its top-left at `origin`; returns its size.
    @discardableResult
    public func drawText(_ text: String, at origin: Point, fonts: FontBook, size: Int, bold: Bool = false,
                         color: RGBColor, alpha: UInt8 = 255) -> Size {
        guard let mask = fonts.render(text, size: size, bold: bold), let surface = Self.surface(of: mask, color, alpha: alpha)
        else { return Size(width: 0, height: 0) }
        defer { SDL_FreeSurface(surface) }
        let measured = Size(width: mask.width, height: mask.height)
        textRuns.append((text, Rect(x: origin.x, y: origin.y, width: measured.width, height: measured.height)))
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return measured }
        defer { SDL_DestroyTexture(texture) }
        draw(texture, from: nil, to: Rect(x: origin.x, y: origin.y, width: measured.width, height: measured.height))
        return measured
    }

    /// A line's coverage as 32-bit pixels of `color`, the coverage their alpha.
    static func surface(of mask: TextMask, _ color: RGBColor, alpha: UInt8 = 255) -> UnsafeMutablePointer<SDL_Surface>? {
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(mask.width), Int32(mask.height), 32,
                                                           SDL_PIXELFORMAT_ARGB8888.rawValue) else { return nil }
        let rgb = UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
        for row in 0..<mask.height {
            let line = (surface.pointee.pixels + row * Int(surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
            for column in 0..<mask.width {
                let a = UInt32(mask.coverage[row * mask.width + column]) * UInt32(alpha) / 255
                line[column] = a << 24 | rgb
            }
        }
        return surface
    }
}
