import FoundationEssentials

/// Where the operator view's parts go on a screen: the header, the grid of campaign cards
/// (as many whole cards as the space holds: more columns on a wide or large screen, fewer
/// in portrait; never a partial card), the page indicator under it, and the facts panel
/// beside it (below it in portrait). In the core, so that a tap finds its card by the
/// same geometry the cards are drawn with.
public struct OperatorLayout: Equatable, Sendable {
    /// The space at the screen's edges and between the grid and the panel.
    public let margin: Int
    /// The point size of the header's title.
    public let titleSize: Int
    /// The point size of the hint line under the title.
    public let hintSize: Int
    /// The grid's area, the page indicator's line included.
    public let grid: Rect
    /// The facts panel's area: beside the grid, or below it in portrait.
    public let panel: Rect
    /// The space between two cards.
    public let gap: Int
    /// A card's width.
    public let tileWidth: Int
    /// The height of the thumbnail at the top of a card.
    public let thumbHeight: Int
    /// The point size of a card's text.
    public let lineSize: Int
    /// A line of card text, from top to top.
    public let line: Int
    /// A card's height: its thumbnail, three lines of text and a gap.
    public let tileHeight: Int
    /// Cards across a page, at least one.
    public let columns: Int
    /// Rows of cards on a page, at least one.
    public let rows: Int

    /// A line of text of `size` points, top to top, as the kiosk's fonts set it.
    public static func lineHeight(_ size: Int) -> Int { size * 4 / 3 + 1 }

    /// The layout for a screen of this size.
    public init(screen: Size) {
        let short = screen.shorterSide
        margin = max(12, short * 3 / 100)
        titleSize = max(16, short * 34 / 1000)
        hintSize = max(11, short * 18 / 1000)
        let top = margin + Self.lineHeight(titleSize) + Self.lineHeight(hintSize) + margin / 2
        if screen.isPortrait {
            grid = Rect(x: margin, y: top, width: screen.width - 2 * margin, height: (screen.height - top) * 60 / 100)
            panel = Rect(x: margin, y: grid.maxY + margin, width: screen.width - 2 * margin,
                         height: screen.height - grid.maxY - 2 * margin)
        } else {
            let gridWidth = (screen.width - 3 * margin) * 64 / 100
            grid = Rect(x: margin, y: top, width: gridWidth, height: screen.height - top - margin)
            panel = Rect(x: grid.maxX + margin, y: top, width: screen.width - grid.maxX - 2 * margin, height: grid.height)
        }
        gap = max(8, short / 80)
        tileWidth = max(120, short * 25 / 100)
        thumbHeight = tileWidth * 5 / 8
        lineSize = max(10, tileWidth / 12)
        line = Self.lineHeight(lineSize)
        tileHeight = thumbHeight + 3 * line + gap
        columns = max(1, (grid.width + gap) / (tileWidth + gap))
        // One line at the bottom is the page indicator's.
        rows = max(1, (grid.height - line - gap + gap) / (tileHeight + gap))
    }

    /// Cards on a page.
    public var perPage: Int { columns * rows }

    /// The frame of the card at `slot` of a page (0 is top-left, then across).
    public func card(_ slot: Int) -> Rect {
        Rect(x: grid.x + (slot % columns) * (tileWidth + gap), y: grid.y + (slot / columns) * (tileHeight + gap),
             width: tileWidth, height: tileHeight)
    }

    /// The slot of the card under `point`, if any.
    public func slot(at point: Point) -> Int? {
        (0..<perPage).first { card($0).contains(point) }
    }

    /// Where the page indicator ("2 / 5") and its hint go.
    public var indicator: Point { Point(x: grid.x, y: grid.maxY - line) }

    /// How many pages `count` cards take (at least one).
    public func pages(for count: Int) -> Int { max(1, (count + perPage - 1) / perPage) }
}
