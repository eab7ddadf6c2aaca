/// Geometry of the 跳过 N pill: top-right, its height about 6% of the screen's shorter
/// side and never under 48 px, wide enough for the largest number it will show.
public struct SkipButton: Equatable, Sendable {
    /// The pill as drawn.
    public var frame: Rect
    /// The area that counts as a tap on the pill: the pill plus a margin, for fingers.
    public var hitArea: Rect
    /// Point size for the label.
    public var fontSize: Int
    /// The pill's dark hairline and its light ring inside it, in pixels.
    public var outlineWidth: Int { max(1, frame.height / 40) }
    /// The width of the light ring inside the hairline, in pixels.
    public var ringWidth: Int { max(2, frame.height / 26) }

    /// The pill on a screen of this size, wide enough for two digits when `maxCountdown`
    /// has them.
    public init(screen: Size, maxCountdown: Int) {
        let height = max(48, Int((Double(screen.shorterSide) * 0.06).rounded()))
        let width = Int(Double(height) * (maxCountdown >= 10 ? 2.75 : 2.35))
        let margin = max(12, height / 2)
        frame = Rect(x: screen.width - margin - width, y: margin, width: width, height: height)
        let slack = height / 3
        hitArea = Rect(x: frame.x - slack, y: frame.y - slack, width: frame.width + 2 * slack, height: frame.height + 2 * slack)
        fontSize = max(18, Int(Double(height) * 0.46))
    }

    /// The label for countdown value `n`.
    public static func label(_ n: Int) -> String { "跳过 \(n)" }
}
