import FoundationEssentials
import SplashCore

/// Where each part of one campaign's detail screen goes on one screen (docs/SCREENS.md): the
/// campaign first, as large as its shape allows, its picture, title and text on one left
/// grid line and its text whole where the screen has room; the poetry card as tall as its
/// poem and secondary; the QR code a share of the short side.
///
/// Landscape: the campaign's column (60 %) beside a column with the card and the code, both
/// columns from one top line, the pair centred in the height. A picture at least 70 % of the
/// column's width stands above the text, which keeps to the picture's width; a narrower one
/// (a poster) stands at the column's left with the text beside it. Portrait: the campaign
/// centred in the room above the card, which is at the foot; a picture narrower than the screen has the code
/// beside it, else the code follows the text. When the text does not fit at its size, the
/// picture gives up room first (58, 50, then 42 % of the height; in portrait 70 % of the
/// room's height, then 58, 46, 34 and 24 % of it and of about as much of the width, but a
/// poster never under half the screen's width), then the text shrinks a step, and only at
/// the smallest size is it cut.
struct DetailPlacement {
    var layout: DetailLayout
    var picture: Rect?
    var title: TextBlock?
    var titleOrigin = Point(x: 0, y: 0)
    var body: TextBlock
    var bodyOrigin = Point(x: 0, y: 0)
    var card: Rect
    var cardLayout: PoetryCard.Layout
    var code: CodePlace?
    /// The picture is smaller than the layout's first choice gave it: it gave up room so
    /// that the text would fit.
    var pictureShrunk = false
    /// The width the text is set to.
    var bodyMeasure = 1

    /// A QR code, its module size, where it goes and where its caption goes.
    struct CodePlace {
        var code: QRCode
        var module: Int
        var origin: Point
        /// The caption's lines: beside the code (vertically centred on it) or under it, centred.
        var caption: [String]
        var captionBeside: Bool
        var captionSize: Int
        /// The width the caption's lines keep to.
        var captionRoom: Int
        var side: Int { code.size * module }
    }

    /// The campaign's part, picture, title and text, as laid out.
    var campaign: Rect

    /// The caption beside or under a campaign's QR code, one line each: what the code opens —
    /// the feed's own words (`linkLabel`) when it gives them, else "扫码打开" over the link's
    /// host (`shop.example.com`, without `www.`); a link with no host to name gets
    /// "扫码了解更多 / Scan for more".
    static func caption(for link: String?, label: String? = nil) -> [String] {
        if let label, !label.isEmpty { return [label] }
        guard let link, var host = URL(string: link)?.host, !host.isEmpty else { return ["扫码了解更多", "Scan for more"] }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        return ["扫码打开", host]
    }

    init(_ scene: DetailScene, screen: Size, pictureSize: Size?, fonts: FontBook) {
        let grid = DetailLayout(screen: screen)
        layout = grid
        let area = grid.area
        let qr = scene.linkURL.flatMap(QRCode.init)
        let caption = Self.caption(for: scene.linkURL, label: scene.linkLabel)
        // The picture the first arrangement tried gave it, to tell whether it gave up room.
        var firstPicture: Size?
        if grid.stacked {
            let fullSide = grid.codeSide(short: screen.shorterSide, room: area.width)
            // A quarter of the height at most: on a small portrait screen, where nothing in the
            // card goes under 16 px, a long poem gives up couplets before the poster its width.
            let cardLayout = PoetryCard.Layout(scene.poetry, width: area.width, maxHeight: area.height * 25 / 100,
                                               unit: grid.unit, fonts: fonts)
            self.cardLayout = cardLayout
            card = Rect(x: area.x, y: area.maxY - cardLayout.height, width: cardLayout.width, height: cardLayout.height)
            let room = card.y - grid.gutter - area.y
            let rowModule = qr.flatMap { LinkCodeSize.modulePixels(modules: $0.size, side: fullSide) }
            var best: Stack?
            search: for size in grid.bodySizes {
            for share in [70, 58, 46, 34, 24] {
                // A share of the room's height and, under 70 %, of the width as much (a wide
                // picture, which the height does not hold back, gives up room too): down to a
                // third of the width.
                let width = area.width * min(100, share * 10 / 7) / 100
                let shape = pictureSize.map { Self.shape(of: $0, width: width, height: room * share / 100) }
                // A poster keeps at least half the screen's width: the text shrinks, then is cut, first.
                if share < 70, let pictureSize, pictureSize.height > pictureSize.width, let shape, shape.width * 2 < screen.width {
                    continue
                }
                var stack = Stack(picture: shape)
                if firstPicture == nil { firstPicture = shape ?? Size(width: 0, height: 0) }
                stack.place(width: area.width, gridLayout: grid, fullMeasure: true)
                // The code beside a picture narrower than the screen, at half its full side or more, when it fits beside the picture.
                var beside: (Int, Int)?
                if let qr, let picture = stack.picture {
                    let free = area.width - picture.width - grid.gutter
                    let side = min(fullSide, free)
                    if let module = LinkCodeSize.modulePixels(modules: qr.size, side: side), side * 2 >= fullSide,
                       qr.size * module + Self.captionHeight(grid, fonts: fonts) <= picture.height {
                        beside = (module, side)
                    }
                }
                let row = qr != nil && beside == nil && rowModule != nil ? qr!.size * rowModule! + grid.onGrid(grid.unit) : 0
                stack.setText(title: scene.title, body: scene.text, room: room - row, size: size, grid: grid, fonts: fonts)
                stack.codeBeside = beside
                stack.codeRow = row
                // Where nothing fits, the one that shows the most of the text.
                if best == nil || stack.fits || (size == grid.minBodySize && stack.shown > best!.shown) { best = stack }
                if stack.fits { break search }
            }
            }
            let stack = best!
            bodyMeasure = stack.measure
            pictureShrunk = (stack.picture?.width ?? 0) < (firstPicture?.width ?? 0)
            // The campaign (with a code after its text) centred in the room above the card.
            let codeRow = stack.codeBeside == nil && rowModule != nil && qr != nil ? stack.codeRow : 0
            let origin = Point(x: area.x, y: area.y + max(0, (room - stack.height - codeRow) / 2))
            (picture, title, titleOrigin, body, bodyOrigin) = stack.placed(at: origin)
            campaign = Rect(x: area.x, y: origin.y, width: area.width, height: stack.height)
            if let qr, let (module, _) = stack.codeBeside, let picture {
                let side = qr.size * module
                // Its caption's foot, as drawn, on the picture's foot.
                var place = CodePlace(code: qr, module: module, origin: Point(x: area.maxX - side, y: picture.maxY - side),
                                      caption: caption, captionBeside: false, captionSize: grid.captionSize, captionRoom: side)
                place.origin.y -= Self.captionFoot(of: place, grid: grid, fonts: fonts) - picture.maxY
                code = place
            } else if let qr, let module = rowModule {
                code = CodePlace(code: qr, module: module, origin: Point(x: area.x, y: origin.y + stack.height + grid.onGrid(grid.unit)),
                                 caption: caption, captionBeside: true, captionSize: grid.captionSize,
                                 captionRoom: area.width - qr.size * module - grid.unit / 2)
                campaign.height += stack.codeRow
            }
        } else {
            // The side column gives up width (40 %, then 34 %) before the text shrinks.
            // The card stays secondary: under a third of the screen's height (at 16 px a long
            // poem loses couplets rather than take the column). Laid out once for each width.
            var cards: [Int: PoetryCard.Layout] = [:]
            for sideShare in [40, 34] {
                let sideMax = (area.width - grid.gutter) * sideShare / 100
                cards[sideShare] = PoetryCard.Layout(scene.poetry, width: sideMax, maxHeight: min(sideMax * 70 / 100, screen.height / 3 - 1),
                                                     unit: grid.unit, fonts: fonts)
            }
            var best: (stack: Stack, sideWidth: Int, cardLayout: PoetryCard.Layout, module: Int?, sideHeight: Int)?
            search: for size in grid.bodySizes {
            // Last, a long text: any picture beside the text rather than above it, at 29 % and
            // then 21 % of the campaign's column, so that the text has the column's height.
            for (sideShare, share, beside) in [(40, 58, false), (40, 50, false), (34, 50, false), (34, 42, false),
                                               (34, 42, true), (34, 34, true)] {
                // The side column is only as wide as the card: the campaign, with its code,
                // takes the rest.
                guard let cardLayout = cards[sideShare] else { continue }
                let sideWidth = cardLayout.width
                let mainWidth = area.width - grid.gutter - sideWidth
                let sideHeight = cardLayout.height
                // The code belongs to the campaign: one size on this screen (the layout's share
                // of the short side, at most two fifths of the campaign's column).
                let module = qr.flatMap { LinkCodeSize.modulePixels(modules: $0.size, side: grid.codeSide(short: screen.shorterSide, room: mainWidth * 2 / 5)) }
                let side = qr.map { $0.size * (module ?? 0) } ?? 0
                var stack: Stack
                // A poster (narrower than 70 % of the column at the picture's largest) stands at the
                // column's left with the text beside it; any other picture above the text.
                let largest = pictureSize.map { ImageFit.fit.placement(of: $0, on: Size(width: mainWidth, height: area.height * 58 / 100), snap: false).destination.size }
                if let largest, beside || largest.width * 10 < mainWidth * 7, let pictureSize {
                    let box = Size(width: mainWidth * (share - 13) / 100, height: area.height)
                    stack = Stack(picture: ImageFit.fit.placement(of: pictureSize, on: box, snap: false).destination.size, beside: true)
                } else {
                    stack = Stack(picture: pictureSize.map { Self.shape(of: $0, width: mainWidth, height: area.height * share / 100) })
                }
                if firstPicture == nil { firstPicture = stack.picture ?? Size(width: 0, height: 0) }
                stack.place(width: mainWidth, gridLayout: grid, fullMeasure: false)
                if side > 0 {
                    // Beside the text, its caption under it, where the text keeps three fifths of
                    // its measure; else under the text, its caption beside it.
                    if !stack.beside, stack.measure - side - grid.gutter >= stack.measure * 3 / 5 {
                        stack.measure -= side + grid.gutter
                        stack.codeColumn = (side, side + Self.captionHeight(grid, fonts: fonts))
                    } else {
                        let room = mainWidth - stack.textX - side - grid.unit / 2
                        stack.codeUnder = side + grid.onGrid(grid.unit)
                            + (Self.captionFits(caption, room, grid: grid, fonts: fonts) ? 0 : Self.captionHeight(grid, fonts: fonts))
                    }
                }
                stack.setText(title: scene.title, body: scene.text, room: area.height - stack.codeUnder, size: size, grid: grid, fonts: fonts)
                if let column = stack.codeColumn, stack.pictureHeight + column.height > area.height { stack.fits = false }
                if best == nil || stack.fits || (size == grid.minBodySize && stack.shown > best!.stack.shown) {
                    best = (stack, sideWidth, cardLayout, module, sideHeight)
                }
                if stack.fits { break search }
            }
            }
            let (stack, sideWidth, cardLayout, module, sideHeight) = best!
            bodyMeasure = stack.measure
            pictureShrunk = (stack.picture?.width ?? 0) < (firstPicture?.width ?? 0)
            self.cardLayout = cardLayout
            // A picture narrower than its column narrows the text with it: the two columns are
            // then centred across the screen, the margins taking what is left, not the gutter.
            let mainWidth = stack.beside || stack.picture == nil ? area.width - grid.gutter - sideWidth
                : max(stack.picture?.width ?? 0, stack.measure + (stack.codeColumn.map { $0.side + grid.gutter } ?? 0))
            let inset = (area.width - grid.gutter - sideWidth - mainWidth) / 2
            let sideX = area.maxX - sideWidth - inset
            let top = area.y + max(0, (area.height - max(stack.height, sideHeight)) / 2)
            (picture, title, titleOrigin, body, bodyOrigin) = stack.placed(at: Point(x: area.x + inset, y: top))
            campaign = Rect(x: area.x + inset, y: top, width: mainWidth, height: stack.height)
            card = Rect(x: sideX, y: top, width: cardLayout.width, height: cardLayout.height)
            // Text beside a picture: the picture and the card come down to the title's ink,
            // so that its first line's characters, not their line box, stand on the top line.
            if stack.beside, let title, var moved = picture {
                let ink = title.glyphOffset + fonts.inkTop(of: title.lines.first ?? "", size: title.size, bold: title.bold)
                if moved.maxY + ink <= area.maxY, card.maxY + ink <= area.maxY {
                    moved.y += ink
                    picture = moved
                    card.y += ink
                    campaign.height = max(campaign.height, moved.maxY - campaign.y)
                }
            }
            if let qr, let module, let column = stack.codeColumn {
                // Beside the text, its top on the title's top line, its caption under it.
                code = CodePlace(code: qr, module: module, origin: Point(x: titleOrigin.x + stack.measure + grid.gutter, y: titleOrigin.y),
                                 caption: caption, captionBeside: false, captionSize: grid.captionSize, captionRoom: column.side)
            } else if let qr, let module, stack.codeUnder > 0 {
                // Under the text, flush left, its caption beside it (or under, where it is too wide).
                let room = campaign.maxX - bodyOrigin.x - qr.size * module - grid.unit / 2
                let beside = Self.captionFits(caption, room, grid: grid, fonts: fonts)
                code = CodePlace(code: qr, module: module,
                                 origin: Point(x: bodyOrigin.x, y: bodyOrigin.y + body.height + grid.onGrid(grid.unit)),
                                 caption: caption, captionBeside: beside, captionSize: grid.captionSize,
                                 captionRoom: beside ? room : qr.size * module)
            }
            alignBottoms(screen: screen, fonts: fonts)
        }
    }

    /// Landscape: bottoms side by side aligned or clearly apart, never a near miss of a few
    /// dozen pixels (docs/SCREENS.md). The code under a text beside the picture comes down to
    /// the picture's foot, or a unit past it; the card, as tall as its poem, grows to the foot
    /// of the picture (else of the code) beside it (up to two fifths of the screen's height), or
    /// to a unit past it (up to a third) — within the area.
    private mutating func alignBottoms(screen: Size, fonts: FontBook) {
        let unit = layout.unit
        let area = layout.area
        func nearMiss(_ a: Int, _ b: Int) -> Bool { abs(a - b) > 2 && abs(a - b) < unit }
        func target(_ bottom: Int, _ anchor: Int) -> Int { bottom < anchor ? anchor : anchor + unit }
        var codeBottom: Int?
        if var c = code {
            let bottom = c.captionBeside ? c.origin.y + c.side : Self.captionFoot(of: c, grid: layout, fonts: fonts)
            codeBottom = bottom
            if let p = picture, c.origin.x >= p.maxX, nearMiss(bottom, p.maxY), target(bottom, p.maxY) <= area.maxY {
                let moved = target(bottom, p.maxY)
                c.origin.y += moved - bottom
                code = c
                codeBottom = moved
                campaign.height = max(campaign.height, moved - campaign.y)
            }
        }
        for anchor in [picture?.maxY, codeBottom].compactMap({ $0 }) where nearMiss(card.maxY, anchor) {
            let bottom = target(card.maxY, anchor)
            // Grown to a foot beside it, up to two fifths of the screen; past it, up to a third.
            guard bottom <= area.maxY, (bottom - card.y) * (bottom == anchor ? 5 : 6) < screen.height * 2 else { continue }
            card.height = bottom - card.y
            cardLayout.height = card.height
        }
    }

    /// What the layout had to give up to fit the campaign of `scene` on this screen, a phrase
    /// each ("the text cut after 4 of 9 lines"): a cut title, a cut or shrunk text, a picture
    /// smaller than its share. Empty when the campaign is shown as designed. (The poem,
    /// which is not the feed's, is left out.)
    func gaveUp(_ scene: DetailScene, fonts: FontBook) -> [String] {
        var said: [String] = []
        if let title, title.cut { said.append("the title cut after \(Plural.count(title.lines.count, "line"))") }
        if pictureShrunk { said.append("the picture made smaller for the text") }
        if body.size < layout.bodySize { said.append("the text set at \(body.size) px instead of \(layout.bodySize)") }
        if body.cut {
            let whole = TextBlock(scene.text, width: max(1, bodyMeasure), size: body.size, leading: DetailLayout.bodyLeading,
                                  grid: layout.grid, fonts: fonts)
            said.append("the text cut after \(body.lines.count) of \(Plural.count(max(whole.lines.count, body.lines.count + 1), "line"))")
        }
        return said
    }

    /// A picture's size in a box `width` wide and `height` tall above the text: as wide as
    /// the box, a landscape picture's top and bottom cropped by at most a third of its height
    /// (`fill`) to keep within the height; a picture that would need more, and a poster, is
    /// fitted whole, narrower.
    static func shape(of picture: Size, width: Int, height: Int) -> Size {
        let natural = width * picture.height / max(1, picture.width)
        if natural <= height { return Size(width: width, height: natural) }
        if picture.width > picture.height, height * 3 >= natural * 2 { return Size(width: width, height: height) }
        return ImageFit.fit.placement(of: picture, on: Size(width: width, height: height), snap: false).destination.size
    }

    /// Whether the caption's lines fit `room` beside a code at four fifths of their size or more.
    static func captionFits(_ caption: [String], _ room: Int, grid: DetailLayout, fonts: FontBook) -> Bool {
        caption.allSatisfy { fonts.width(of: $0, size: max(DetailLayout.smallestBody, grid.captionSize * 4 / 5)) <= room }
    }

    /// The height kept for a code's caption under it: two lines at the caption's size.
    static func captionHeight(_ grid: DetailLayout, fonts: FontBook) -> Int {
        grid.unit / 4 + 2 * fonts.lineHeight(size: grid.captionSize)
    }

    /// A caption's lines as they are drawn in `room`, each with its size: the feed's own
    /// words (one line) wrapped onto two at four fifths of `size` where one is too narrow;
    /// each line shrunk to fit, down to the 16 px floor (all at one size when `together`,
    /// beside a code), and a line still too wide cut with "…".
    static func captionLines(_ caption: [String], room: Int, size: Int, together: Bool, fonts: FontBook) -> [(text: String, size: Int)] {
        let smallest = DetailLayout.smallestBody
        if caption.count == 1, fonts.width(of: caption[0], size: size) > room {
            let wrapped = max(smallest, size * 4 / 5)
            return TextBlock(caption[0], width: room, size: wrapped, maxLines: 2, fonts: fonts).lines.map { ($0, wrapped) }
        }
        func fitting(_ lines: [String]) -> Int {
            var s = size
            while s > smallest, lines.contains(where: { fonts.width(of: $0, size: s) > room }) { s -= 1 }
            return s
        }
        return caption.map { line in
            let s = together ? fitting(caption) : fitting([line])
            return (TextBlock(line, width: room, size: s, maxLines: 1, fonts: fonts).lines.first ?? line, s)
        }
    }

    /// Where a code's caption under it ends: the code's foot, a quarter unit, and its lines
    /// as drawn.
    static func captionFoot(of code: CodePlace, grid: DetailLayout, fonts: FontBook) -> Int {
        let lines = captionLines(code.caption, room: code.captionRoom, size: code.captionSize, together: false, fonts: fonts)
        return code.origin.y + code.side + grid.unit / 4 + lines.reduce(0) { $0 + fonts.lineHeight(size: $1.size) }
    }

    /// The campaign's picture, title and text as one block: where each goes within it, and
    /// whether its text fits at the size asked for.
    private struct Stack {
        var picture: Size?
        var beside = false
        var measure = 0
        var textX = 0
        var pictureHeight = 0
        var title: TextBlock?
        var body: TextBlock?
        var fits = false
        var codeBeside: (Int, Int)?
        var codeRow = 0
        /// Landscape: the code beside the text, right of its measure: its side, and its height
        /// with the caption under it.
        var codeColumn: (side: Int, height: Int)?
        /// Landscape: the code under the text, with the gap before it.
        var codeUnder = 0
        var titleGap = 0

        init(picture: Size?, beside: Bool = false) {
            self.picture = picture
            self.beside = beside
        }

        /// The text's measure and where it starts, for a column `width` wide.
        /// The text's measure is the picture's width above it, or the whole column (`fullMeasure`).
        mutating func place(width: Int, gridLayout grid: DetailLayout, fullMeasure: Bool) {
            if let picture, beside {
                textX = picture.width + grid.gutter
                measure = width - textX
            } else {
                measure = fullMeasure ? width : picture.map { max($0.width, 1) } ?? width
                pictureHeight = picture.map { $0.height + grid.onGrid(grid.unit) } ?? 0
            }
        }

        /// Sets the title and the body in `room`, the body at `size` and cut to the lines that
        /// fit, noting whether both fit whole — a title cut (more than three lines at this
        /// measure) does not, so that the picture gives up room before a headline is cut.
        mutating func setText(title text: String?, body: String, room: Int, size: Int, grid: DetailLayout, fonts: FontBook) {
            var title = text.map {
                TextBlock($0, width: measure, size: grid.titleSize, bold: true, maxLines: 3, leading: DetailLayout.titleLeading,
                          grid: grid.grid, balanced: true, fonts: fonts)
            }
            let titleWhole = text.map {
                TextBlock($0, width: measure, size: grid.titleSize, bold: true, maxLines: 4, leading: DetailLayout.titleLeading,
                          grid: grid.grid, balanced: true, fonts: fonts).lines.count <= 3
            } ?? true
            titleGap = title == nil ? 0 : grid.onGrid(grid.unit / 2)
            let textRoom = room - pictureHeight
            var left = textRoom - (title.map { $0.height + titleGap } ?? 0)
            let probe = TextBlock("中", width: measure, size: grid.bodySize, leading: DetailLayout.bodyLeading, grid: grid.grid, fonts: fonts)
            var titleKept = titleWhole
            if let lines = title?.lines.count, lines > 1, left < 2 * probe.lineHeight {
                title?.truncate(toLines: lines - 1, width: measure, fonts: fonts)
                left = textRoom - (title.map { $0.height + titleGap } ?? 0)
                titleKept = false
            }
            self.title = title
            let step = TextBlock(body, width: measure, size: size, maxLines: 1, leading: DetailLayout.bodyLeading,
                                 grid: grid.grid, fonts: fonts).lineHeight
            let lines = max(0, left / max(1, step))
            var block = TextBlock(body, width: measure, size: size, maxLines: lines + 1, leading: DetailLayout.bodyLeading,
                                  grid: grid.grid, fonts: fonts)
            fits = block.lines.count <= lines && titleKept
            block.truncate(toLines: lines, width: measure, fonts: fonts)
            self.body = block
        }

        /// How many characters of the title and the text are shown.
        var shown: Int { (body?.lines.reduce(0) { $0 + $1.count } ?? 0) + (title?.lines.reduce(0) { $0 + $1.count } ?? 0) }

        var textHeight: Int { (title.map { $0.height + titleGap } ?? 0) + (body?.height ?? 0) }
        var height: Int {
            beside ? max(picture?.height ?? 0, textHeight + codeUnder)
                : pictureHeight + max(textHeight, codeColumn?.height ?? 0) + codeUnder
        }

        /// The picture, title and text with the block's top-left at `origin`.
        func placed(at origin: Point) -> (Rect?, TextBlock?, Point, TextBlock, Point) {
            let pictureRect = picture.map { Rect(x: origin.x, y: origin.y, width: $0.width, height: $0.height) }
            let textTop = beside ? origin.y : origin.y + pictureHeight
            let titleOrigin = Point(x: origin.x + textX, y: textTop)
            let bodyOrigin = Point(x: origin.x + textX, y: textTop + (title.map { $0.height + titleGap } ?? 0))
            return (pictureRect, title, titleOrigin, body!, bodyOrigin)
        }
    }
}
