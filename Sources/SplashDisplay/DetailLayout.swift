import SplashCore

/// The detail screen's grid (docs/SCREENS.md): one unit, a 24th of the screen's short
/// side; margins of two units, gutters of one and a half; type on the same unit. Landscape
/// sets the campaign (picture, title, text) beside a column with the poetry card and the
/// QR code, each column's content centred in the height; portrait stacks the campaign
/// above the QR code and the card, which sits at the foot.
struct DetailLayout: Equatable {
    /// The grid unit in pixels.
    var unit: Int
    /// The screen less its margins.
    var area: Rect
    /// The campaign's column: its picture, title and text go here, centred in its height.
    var main: Rect
    /// The poetry card.
    var card: Rect
    /// Where the QR code's block (code and caption) goes, when the campaign has a link.
    var link: Rect?
    /// The picture at most: the share of the main column it may take.
    var pictureBox: Rect
    var titleSize: Int
    var bodySize: Int
    /// The smallest the body text is shrunk to before it is cut with "…".
    var minBodySize: Int
    var gutter: Int
    var stacked: Bool

    init(screen: Size, linkSide: Int? = nil) {
        let short = screen.shorterSide
        unit = max(12, short / 24)
        let margin = 2 * unit
        gutter = unit * 3 / 2
        area = Rect(x: margin, y: margin, width: screen.width - 2 * margin, height: screen.height - 2 * margin)
        titleSize = max(16, unit * 5 / 4)
        bodySize = max(13, unit * 4 / 5)
        minBodySize = max(12, bodySize * 7 / 10)
        stacked = screen.isPortrait
        if stacked {
            let cardHeight = min(area.width / 2, area.height * 26 / 100)
            card = Rect(x: area.x, y: area.maxY - cardHeight, width: area.width, height: cardHeight)
            main = Rect(x: area.x, y: area.y, width: area.width, height: card.y - gutter - area.y)
            if let side = linkSide {
                // The code under the text, centred: the last part of the campaign's stack.
                let block = side + Self.captionHeight(unit)
                link = Rect(x: main.x + (main.width - side) / 2, y: main.maxY - block, width: side, height: block)
                main.height -= block + gutter
            }
            pictureBox = Rect(x: main.x, y: main.y, width: main.width, height: main.height * 52 / 100)
        } else {
            let sideWidth = (area.width - gutter) * 40 / 100
            let side = Rect(x: area.maxX - sideWidth, y: area.y, width: sideWidth, height: area.height)
            main = Rect(x: area.x, y: area.y, width: side.x - gutter - area.x, height: area.height)
            var cardHeight = min(side.width * 62 / 100, side.height * 60 / 100)
            var stackHeight = cardHeight
            if let code = linkSide {
                let block = code + Self.captionHeight(unit)
                cardHeight = min(cardHeight, side.height - gutter - block)
                stackHeight = cardHeight + gutter + block
                let top = side.y + (side.height - stackHeight) / 2
                link = Rect(x: side.x + (side.width - code) / 2, y: top + cardHeight + gutter, width: code, height: block)
            }
            card = Rect(x: side.x, y: side.y + (side.height - stackHeight) / 2, width: side.width, height: cardHeight)
            pictureBox = Rect(x: main.x, y: main.y, width: main.width, height: main.height * 58 / 100)
        }
    }

    /// The height of the QR code's two-line caption under it.
    static func captionHeight(_ unit: Int) -> Int { unit * 3 }
}
