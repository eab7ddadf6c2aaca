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
        setColor(color, alpha: alpha)
        SDL_RenderFillRects(renderer, spans, Int32(spans.count))
        for e in edges {
            setColor(color, alpha: UInt8(Double(alpha) * e.coverage))
            SDL_RenderDrawPoint(renderer, e.left, e.y)
            SDL_RenderDrawPoint(renderer, e.right, e.y)
        }
    }

    /// Draws one line of text with its top-left at `origin`; returns its size.
    @discardableResult
    public func drawText(_ text: String, at origin: Point, fonts: FontBook, size: Int, bold: Bool = false,
                         color: RGBColor, alpha: UInt8 = 255) -> Size {
        let c = SDL_Color(r: color.red, g: color.green, b: color.blue, a: alpha)
        guard let surface = fonts.render(text, size: size, bold: bold, color: c) else { return Size(width: 0, height: 0) }
        defer { SDL_FreeSurface(surface) }
        let measured = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        textRuns.append((text, Rect(x: origin.x, y: origin.y, width: measured.width, height: measured.height)))
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return measured }
        defer { SDL_DestroyTexture(texture) }
        draw(texture, from: nil, to: Rect(x: origin.x, y: origin.y, width: measured.width, height: measured.height))
        return measured
    }
}
