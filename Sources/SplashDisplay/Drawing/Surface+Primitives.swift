import FoundationEssentials
import SplashCore
import SplashServices

/// The drawing primitives the screens are made of: fills, rounded rectangles, text.
extension Surface {
    /// Fills the whole frame.
    public func clear(_ color: RGBColor) {
        frame.fill(nil, color)
    }

    /// Fills a rectangle, over what is there at `alpha`.
    public func fill(_ r: Rect, _ color: RGBColor, alpha: UInt8 = 255) {
        frame.fill([r], color, alpha: alpha)
    }

    /// Fills a rectangle with rounded corners of `radius`, with anti-aliased left and right
    /// edges (one partly covered pixel per row and side).
    public func fillRoundedRect(_ r: Rect, radius: Int, _ color: RGBColor, alpha: UInt8 = 255) {
        guard r.width > 0, r.height > 0 else { return }
        let rad = Double(min(radius, r.width / 2, r.height / 2))
        var spans: [Rect] = []
        spans.reserveCapacity(r.height)
        var edges: [(y: Int, left: Int, right: Int, coverage: Double)] = []
        for row in 0..<r.height {
            let cy = Double(row) + 0.5
            let dy: Double
            if cy < rad { dy = rad - cy } else if cy > Double(r.height) - rad { dy = cy - (Double(r.height) - rad) } else { dy = 0 }
            let inset = dy > 0 ? rad - (rad * rad - dy * dy).squareRoot() : 0
            let whole = Int(inset.rounded(.up))
            let y = r.y + row
            let width = r.width - 2 * whole
            if width > 0 {
                spans.append(Rect(x: r.x + whole, y: y, width: width, height: 1))
            }
            let coverage = Double(whole) - inset
            if coverage > 0.02, whole > 0 {
                edges.append((y, r.x + whole - 1, r.maxX - whole, coverage))
            }
        }
        fill(spans: spans, edges: edges, color, alpha: alpha)
    }

    /// Fills whole-pixel spans, then the partly covered pixel at each end of a row at its coverage.
    private func fill(spans: [Rect], edges: [(y: Int, left: Int, right: Int, coverage: Double)], _ color: RGBColor,
                      alpha: UInt8) {
        frame.fill(spans, color, alpha: alpha)
        for e in edges {
            frame.fill([Rect(x: e.left, y: e.y, width: 1, height: 1), Rect(x: e.right, y: e.y, width: 1, height: 1)], color,
                       alpha: UInt8(Double(alpha) * e.coverage))
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
        var spans: [Rect] = []
        var edges: [(y: Int, left: Int, right: Int, coverage: Double)] = []
        for row in 0..<r.height {
            let outer = inset(row, height: r.height, radius: rad)
            let y = r.y + row
            let inner = row - width
            if inner >= 0, inner < r.height - 2 * width {
                let left = width + inset(inner, height: r.height - 2 * width, radius: innerRad).whole
                if left > outer.whole {
                    spans.append(Rect(x: r.x + outer.whole, y: y, width: left - outer.whole, height: 1))
                    spans.append(Rect(x: r.maxX - left, y: y, width: left - outer.whole, height: 1))
                }
            } else if r.width - 2 * outer.whole > 0 {
                spans.append(Rect(x: r.x + outer.whole, y: y, width: r.width - 2 * outer.whole, height: 1))
            }
            let coverage = Double(outer.whole) - outer.exact
            if coverage > 0.02, outer.whole > 0 {
                edges.append((y, r.x + outer.whole - 1, r.maxX - outer.whole, coverage))
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
        var spans: [Rect] = []
        var edges: [(y: Int, left: Int, right: Int, coverage: Double)] = []
        for row in 0..<r.height {
            let cy = Double(row) + 0.5
            let dy: Double
            if cy < rad { dy = rad - cy } else if cy > Double(r.height) - rad { dy = cy - (Double(r.height) - rad) } else { continue }
            let inset = rad - (rad * rad - dy * dy).squareRoot()
            let whole = Int(inset.rounded(.down))
            let y = r.y + row
            if whole > 0 {
                spans.append(Rect(x: r.x, y: y, width: whole, height: 1))
                spans.append(Rect(x: r.maxX - whole, y: y, width: whole, height: 1))
            }
            let coverage = inset - Double(whole)
            if coverage > 0.02 { edges.append((y, r.x + whole, r.maxX - whole - 1, coverage)) }
        }
        fill(spans: spans, edges: edges, color, alpha: 255)
    }

    /// Draws one line of text with its top-left at `origin`; returns its size as set (a closing
    /// Chinese mark's blank half at its end not counted, as `FontBook.width(of:)`).
    @discardableResult
    public func drawText(_ text: String, at origin: Point, fonts: FontBook, size: Int, bold: Bool = false,
                         color: RGBColor, alpha: UInt8 = 255) -> Size {
        guard let mask = fonts.render(text, size: size, bold: bold) else { return Size(width: 0, height: 0) }
        let measured = Size(width: mask.width - mask.trailingBlank, height: mask.height)
        textRuns.append((text, Rect(x: origin.x, y: origin.y, width: measured.width, height: measured.height), size))
        frame.draw(mask, at: origin, color, alpha: alpha)
        return measured
    }
}
