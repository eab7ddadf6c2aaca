import SplashCore

/// Where the parts of the detail screen go: landscape puts the poetry card beside the
/// campaign, portrait puts it below.
struct DetailLayout: Equatable {
    var picture: Rect
    var text: Rect
    var card: Rect
    var titleSize: Int
    var bodySize: Int

    init(screen: Size) {
        let short = screen.shorterSide
        let m = max(16, short * 5 / 100)
        titleSize = max(16, short * 55 / 1000)
        bodySize = max(12, short * 34 / 1000)
        if screen.isPortrait {
            let width = screen.width - 2 * m
            let cardHeight = width * 42 / 100
            card = Rect(x: m, y: screen.height - m - cardHeight, width: width, height: cardHeight)
            picture = Rect(x: m, y: m, width: width, height: screen.height * 30 / 100)
            let textTop = picture.maxY + m / 2
            text = Rect(x: m, y: textTop, width: width, height: card.y - m / 2 - textTop)
        } else {
            let cardWidth = screen.width * 40 / 100
            let columnWidth = screen.width - 3 * m - cardWidth
            card = Rect(x: screen.width - m - cardWidth, y: m, width: cardWidth, height: cardWidth * 56 / 100)
            picture = Rect(x: m, y: m, width: columnWidth, height: screen.height * 48 / 100)
            let textTop = picture.maxY + m / 2
            text = Rect(x: m, y: textTop, width: columnWidth, height: screen.height - m - textTop)
        }
    }
}
