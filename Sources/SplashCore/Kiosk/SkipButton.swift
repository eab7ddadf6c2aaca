/// Geometry of the 跳过 N pill: top-right, its height about 6% of the screen's shorter
/// side and never under 52 px, wide enough for the largest number it will show.
public struct SkipButton: Equatable, Sendable {
    /// The pill as drawn.
    public var frame: Rect
    /// The area that counts as a tap on the pill: the pill plus a margin, for fingers.
    public var hitArea: Rect
    /// Point size for the label.
    public var fontSize: Int
    /// The pill's light hairline, in pixels.
    public var edgeWidth: Int { max(1, frame.height / 48) }

    /// The pill on a screen of this size, wide enough for two digits when `maxCountdown`
    /// has them.
    /// With `picture` (where the splash picture lies on the screen), a pill that would
    /// straddle the picture's edge (a letterbox narrower than the pill) moves inside the
    /// picture, its margin from the picture's top and right edges.
    public init(screen: Size, maxCountdown: Int, picture: Rect? = nil) {
        let height = max(Self.smallestHeight, Int((Double(screen.shorterSide) * 0.06).rounded()))
        let width = Int(Double(height) * (maxCountdown >= 10 ? 2.75 : 2.35))
        let margin = max(12, height / 2)
        frame = Rect(x: screen.width - margin - width, y: margin, width: width, height: height)
        if let picture, frame.intersects(picture), !picture.contains(frame) {
            let inside = Rect(x: min(frame.x, picture.maxX - margin - width), y: max(frame.y, picture.y + margin),
                              width: width, height: height)
            if picture.contains(inside) { frame = inside }
        }
        let slack = height / 3
        hitArea = Rect(x: frame.x - slack, y: frame.y - slack, width: frame.width + 2 * slack, height: frame.height + 2 * slack)
        fontSize = max(18, Int(Double(height) * 0.46))
    }

    /// The pill's least height: 9.3 mm on the official 7" 800x480 touch panel (0.179 mm a
    /// pixel down its height), over the 9 mm a finger needs.
    public static let smallestHeight = 52

    /// The label for countdown value `n`.
    public static func label(_ n: Int) -> String { "跳过 \(n)" }
}
