/// Geometry of the 跳过 N pill: its height about 6% of the screen's shorter side and never
/// under 52 px, wide enough for the largest number it will show, in one fixed place on every
/// splash — the top-right corner, the grid's margin from the top and right edges and never
/// less than the action-safe area's 3.5 % of the screen (inside the overscan of a TV).
/// Pictures make room for it (`corner`), not the other way round.
public struct SkipButton: Equatable, Sendable {
    /// The pill as drawn.
    public var frame: Rect
    /// The area that counts as a tap on the pill: the pill plus a margin, for fingers.
    public var hitArea: Rect
    /// Point size for the label.
    public var fontSize: Int
    /// The top-right corner of the screen a letterboxed picture leaves clear when its bars
    /// have room for it: the pill with its inset on every side, so that the pill stands in
    /// a bar rather than on the picture's edge.
    public var corner: Size
    /// The pill's light hairline, in pixels.
    public var edgeWidth: Int { max(1, frame.height / 48) }

    /// The pill on a screen of this size: as wide as 跳过 and two digits need (the longest
    /// countdown a campaign may have is `Campaign.countdownRange`'s), whatever this splash
    /// counts down from, so it is the same pill on every campaign.
    public init(screen: Size) {
        let height = max(Self.smallestHeight, Int((Double(screen.shorterSide) * 0.06).rounded()))
        let width = Int(Double(height) * 2.75)
        let inset = Self.inset(on: screen)
        frame = Rect(x: screen.width - inset.x - width, y: inset.y, width: width, height: height)
        corner = Size(width: width + 2 * inset.x, height: height + 2 * inset.y)
        let slack = height / 3
        hitArea = Rect(x: frame.x - slack, y: frame.y - slack, width: frame.width + 2 * slack, height: frame.height + 2 * slack)
        fontSize = max(18, Int(Double(height) * 0.46))
    }

    /// The pill's distance from the screen's right and top edges: the grid's margin, and
    /// never under the action-safe area (3.5 % of the screen's width and of its height,
    /// rounded up: 67 and 38 px at 1920x1080, where the margin is 90).
    public static func inset(on screen: Size) -> (x: Int, y: Int) {
        let margin = ScreenGrid(screen: screen).margin
        return (max(margin, (screen.width * 35 + 999) / 1000), max(margin, (screen.height * 35 + 999) / 1000))
    }

    /// The pill's least height: 9.3 mm on the official 7" 800x480 touch panel (0.179 mm a
    /// pixel down its height), over the 9 mm a finger needs.
    public static let smallestHeight = 52

    /// The label for countdown value `n`.
    public static func label(_ n: Int) -> String { "跳过 \(n)" }
}
