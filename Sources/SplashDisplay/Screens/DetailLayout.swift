import SplashCore

/// The detail screen's grid and type scale (docs/SCREENS.md): one unit, a 24th of the
/// screen's short side; margins of two units, gutters of one and a half; a baseline step of
/// an eighth of a unit that line heights are rounded up to; and the type sizes on the same unit.
/// Where each part goes for a given campaign is `DetailPlacement`.
struct DetailLayout: Equatable {
    /// The grid unit in pixels.
    var unit: Int
    /// The baseline step: line heights and vertical gaps are multiples of it.
    var grid: Int
    /// The screen less its margins.
    var area: Rect
    var gutter: Int
    var titleSize: Int
    var bodySize: Int
    /// The smallest the body text is shrunk to before it is cut: two thirds of its size (24 px
    /// at 1920x1080, where a 650-character Chinese text then keeps 40 characters a line) and
    /// never under 16 px (3.1 mm on a 7" 800x480 panel, 4.4 mm on a 10" one).
    var minBodySize: Int
    var captionSize: Int
    var stacked: Bool

    /// The smallest text on any screen, in pixels: body, captions, the poem.
    static let smallestBody = ScreenGrid.smallestText
    /// Line spacing of titles and of body text.
    static let titleLeading = TextBlock.Leading(latin: 1.2, chinese: 1.3)
    static let bodyLeading = TextBlock.Leading(latin: 1.4, chinese: 1.6)

    init(screen: Size) {
        unit = ScreenGrid(screen: screen).unit
        grid = max(2, unit / 8)
        let margin = 2 * unit
        gutter = unit * 3 / 2
        area = Rect(x: margin, y: margin, width: screen.width - 2 * margin, height: screen.height - 2 * margin)
        titleSize = max(20, unit * 5 / 4)
        bodySize = max(Self.smallestBody, unit * 4 / 5)
        minBodySize = max(Self.smallestBody, bodySize * 2 / 3)
        captionSize = max(Self.smallestBody, unit * 3 / 5)
        stacked = screen.isPortrait
    }

    /// The body's sizes, largest first: its own, then a tenth smaller each step down to
    /// `minBodySize`. Each is tried with the picture at every share before the next.
    var bodySizes: [Int] {
        var sizes = [bodySize]
        while let last = sizes.last, last > minBodySize { sizes.append(max(minBodySize, last * 9 / 10)) }
        return sizes
    }

    /// `value` rounded up to the baseline step.
    func onGrid(_ value: Int) -> Int { (value + grid - 1) / grid * grid }

    /// The QR code's side the layout gives a link: `LinkCodeSize.share` (30 %) of the short
    /// side, less where its place is narrower. The link's length only chooses the modules'
    /// size within it.
    func codeSide(short: Int, room: Int) -> Int { min(short * LinkCodeSize.share / 100, room) }
}
