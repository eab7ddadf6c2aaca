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

    /// The point size of the facts panel's values.
    public let factSize: Int
    /// Columns of facts in the panel: two in portrait, where the panel is wide and short.
    public let factColumns: Int

    /// The widest a card is drawn: the stored thumbnail's 320 px at 1080p and below (so no
    /// thumbnail is drawn larger than it is kept), scaled with larger screens.
    public static func widestCard(short: Int) -> Int { 320 * max(1, short / 1080) }

    /// The layout for a screen of this size: the margins of every screen (two grid units, a
    /// 24th of the short side each), cards that fill the grid's width, and in portrait the
    /// facts in two columns below the grid, as tall as they need.
    public init(screen: Size) {
        let short = screen.shorterSide
        let unit = ScreenGrid(screen: screen).unit
        margin = 2 * unit
        // Nothing under the screens' smallest text (16 px).
        let floor = ScreenGrid.smallestText
        titleSize = max(floor + 2, short * 34 / 1000)
        hintSize = max(floor, short * 18 / 1000)
        factSize = max(floor, short * 21 / 1000)
        let top = margin + Self.lineHeight(titleSize) + Self.lineHeight(hintSize) + margin / 2
        if screen.isPortrait {
            factColumns = 2
            // Seven rows of facts (label and up to two lines of value each) below the grid.
            let factsHeight = 7 * (Self.lineHeight(max(floor, factSize * 85 / 100)) + 2 * Self.lineHeight(factSize) + factSize / 2)
            let panelHeight = min(factsHeight, (screen.height - top - margin) * 45 / 100)
            grid = Rect(x: margin, y: top, width: screen.width - 2 * margin, height: screen.height - top - 2 * margin - panelHeight)
            panel = Rect(x: margin, y: grid.maxY + margin, width: screen.width - 2 * margin, height: panelHeight)
        } else {
            factColumns = 1
            let gridWidth = (screen.width - 2 * margin - unit * 3 / 2) * 64 / 100
            grid = Rect(x: margin, y: top, width: gridWidth, height: screen.height - top - margin)
            let panelX = grid.maxX + unit * 3 / 2
            panel = Rect(x: panelX, y: top, width: screen.width - margin - panelX, height: grid.height)
        }
        gap = max(8, short / 80)
        // As many cards across as fit at a quarter of the short side, then widened to fill
        // the grid, but never past the widest a thumbnail is drawn (more columns instead).
        let preferred = max(120, short * 25 / 100)
        var across = max(1, (grid.width + gap) / (preferred + gap))
        while (grid.width - (across - 1) * gap) / across > Self.widestCard(short: short) { across += 1 }
        columns = across
        tileWidth = (grid.width - (across - 1) * gap) / across
        thumbHeight = tileWidth * 5 / 8
        lineSize = max(floor, min(tileWidth, preferred) / 12)
        line = Self.lineHeight(lineSize)
        tileHeight = thumbHeight + 3 * line + gap
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
