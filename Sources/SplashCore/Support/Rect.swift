/// An axis-aligned rectangle in pixels.
public struct Rect: Equatable, Hashable, Sendable {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// Pixels from left to right.
    public var width: Int
    /// Pixels from top to bottom.
    public var height: Int

    /// The rectangle with its top-left corner at `x`, `y`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle `d` pixels smaller on every side.
    public func insetBy(_ d: Int) -> Rect {
        Rect(x: x + d, y: y + d, width: max(0, width - 2 * d), height: max(0, height - 2 * d))
    }

    /// The same rectangle moved by `origin`'s x and y.
    public func offsetBy(_ origin: Point) -> Rect {
        Rect(x: x + origin.x, y: y + origin.y, width: width, height: height)
    }

    /// Whether `other` lies wholly inside.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// Whether the two rectangles share a pixel.
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The width and height.
    public var size: Size { Size(width: width, height: height) }

    /// The column just past the right edge.
    public var maxX: Int { x + width }
    /// The row just below the bottom edge.
    public var maxY: Int { y + height }
    /// The middle, rounded towards the top-left.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    /// Whether the point lies inside (left/top edges inclusive, right/bottom exclusive).
    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.x < maxX && p.y >= y && p.y < maxY
    }

    /// The same rectangle in pixels of a picture held at `scale` pixels per pixel of the
    /// original, each edge rounded.
    public func scaled(by scale: Double) -> Rect {
        Rect(x: Int((Double(x) * scale).rounded()), y: Int((Double(y) * scale).rounded()),
             width: Int((Double(width) * scale).rounded()), height: Int((Double(height) * scale).rounded()))
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let left = min(x, other.x), top = min(y, other.y)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The part inside `bounds` (empty, at its corner, when they do not meet).
    public func clipped(to bounds: Rect) -> Rect {
        let left = max(x, bounds.x), top = max(y, bounds.y)
        let right = min(maxX, bounds.maxX), bottom = min(maxY, bounds.maxY)
        guard right > left, bottom > top else { return Rect(x: bounds.x, y: bounds.y, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
