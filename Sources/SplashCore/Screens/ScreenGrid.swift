/// The grid every screen is laid out on (docs/SCREENS.md): a unit of a 24th of the screen's
/// short side, at least 12 px, and a margin of two units around the screen.
public struct ScreenGrid: Equatable, Sendable {
    /// A 24th of the short side (45 px at 1920x1080), at least 12 px.
    public let unit: Int

    public init(screen: Size) {
        unit = max(12, screen.shorterSide / 24)
    }

    /// The margin around the screen: two units (90 px at 1920x1080).
    public var margin: Int { 2 * unit }

    /// The smallest text drawn on any screen, in pixels: 3.1 mm on the official 7" 800x480
    /// panel, readable at arm's length (docs/SCREENS.md).
    public static let smallestText = 16
}
