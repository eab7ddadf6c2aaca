import Foundation
import SplashTestSupport
@testable import SplashCore
@testable import SplashDisplay
import Testing

extension InProcessCanvasTests {
    /// No text is cut by the screen or by its box: the screens are drawn in-process at every
    /// size a kiosk may have, with the longest texts a feed may carry, and each run of glyphs
    /// the drawing put down (`Surface.textRuns`) is held to the screen (with a margin) and to
    /// the box of the layout it belongs in.
    @Suite struct TextBoxTests {
        static let sizes = [Size(width: 640, height: 480), Size(width: 800, height: 480), Size(width: 1024, height: 600),
                            Size(width: 1280, height: 720), Size(width: 1920, height: 1080), Size(width: 1080, height: 1920),
                            Size(width: 1280, height: 1024), Size(width: 480, height: 800), Size(width: 3840, height: 2160)]

        /// The longest title, text and a long link a feed may have, and a long poem.
        static func scenes() -> [(name: String, scene: DetailScene)] {
            let title = String(String(repeating: "春茶上新明前龙井 Flash Deal ", count: 20).prefix(FeedDocument.maxTitle))
            let detail = String(String(repeating: "今年第一批明前龙井已经到店，茶汤清亮。Free tasting every afternoon at 2 pm. ", count: 60)
                .prefix(FeedDocument.maxDetail))
            let poem = PoetryEntry(origin: "送童子下山送童子下山送童子下山送童子下山", author: "金地藏金地藏金地藏",
                                   lines: Array(repeating: "空门寂寞汝思家，礼别云房下九华。爱向竹栏骑竹马，懒于金地聚金沙。", count: 6),
                                   source: .timeline)
            // The longest link a feed may carry: 1024 characters.
            let link = String(("https://shop.example.com/spring-tea?" + String(repeating: "campaign=kiosk&", count: 80)).prefix(1024))
            let pictures = try? temporaryFolder()
            let wide = pictures.map { $0 + "/wide.png" }, tall = pictures.map { $0 + "/tall.png" }
            if let wide, let tall {
                try? writeImage(wide, width: 1600, height: 900, bands: [red, blue])
                try? writeImage(tall, width: 600, height: 1200, bands: [blue, red])
            }
            return [
                ("everything", DetailScene(campaignID: "a", title: title, text: detail, imagePath: wide, poetry: poem, spinnerPhase: nil,
                                           linkURL: link)),
                ("a tall picture", DetailScene(campaignID: "t", title: title, text: detail, imagePath: tall, poetry: poem, spinnerPhase: nil,
                                               linkURL: link)),
                ("no picture", DetailScene(campaignID: "n", title: title, text: detail, imagePath: nil, poetry: poem, spinnerPhase: nil,
                                           linkURL: link)),
                ("no link", DetailScene(campaignID: "b", title: title, text: detail, imagePath: nil, poetry: poem, spinnerPhase: nil)),
                ("no title", DetailScene(campaignID: "c", title: nil, text: detail, imagePath: nil, poetry: poem, spinnerPhase: nil,
                                         linkURL: "https://x.example/")),
                ("a label", DetailScene(campaignID: "l", title: "周五夜市", text: "东门广场，晚七点开市。", imagePath: tall, poetry: poem,
                                        spinnerPhase: nil, linkURL: "https://shop.example.com/market",
                                        linkLabel: String(repeating: "扫码预约周五夜市座位", count: 3).prefix(Campaign.linkLabelMaxLength).description)),
                ("short", DetailScene(campaignID: "d", title: "周五夜市", text: "东门广场。", imagePath: nil,
                                      poetry: PoetryEntry(origin: "出塞", lines: ["秦时明月汉时关"], source: .bundled), spinnerPhase: nil)),
            ]
        }

        /// The Chinese fonts a kiosk may draw with: each one installed here, else fontconfig's.
        static func fontBooks() throws -> [FontBook] {
            let faces = ["/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"]
                .filter { FileManager.default.fileExists(atPath: $0) }
            let books = faces.compactMap { try? FontBook.located(font: $0, memo: nil) }
            return books.isEmpty ? [try FontBook.located(font: nil, memo: nil)] : books
        }

        @Test(arguments: sizes)
        func detailTextStaysInsideTheScreenAndItsBoxes(_ size: Size) throws {
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            for fonts in try Self.fontBooks() {
            for (name, scene) in Self.scenes() {
                let surface = canvas.beginFrame()
                try DetailRenderer(surface: surface, fonts: fonts).draw(scene)
                let placement = DetailPlacement(scene, screen: size, pictureSize: scene.imagePath.map { _ in
                    (try? surface.imageSize(scene.imagePath!)) ?? Size(width: 1, height: 1) }, fonts: fonts)
                let layout = placement.layout
                // The card keeps its poem at 16 px or more, whatever the link: nothing in it smaller.
                let card = placement.cardLayout
                #expect(!card.verses.lines.isEmpty && card.verses.size >= 16 && card.origin.size >= 16 && (card.author?.size ?? 16) >= 16,
                        "\(size) \(name): \(card.verses.lines) at \(card.verses.size) px")
                let screen = Rect(x: 0, y: 0, width: size.width, height: size.height).insetBy(max(4, layout.unit / 2))
                let code = placement.code.map { c -> Rect in
                    let caption = c.captionBeside ? Rect(x: c.origin.x, y: c.origin.y, width: c.side + layout.unit / 2 + c.captionRoom, height: c.side)
                        : Rect(x: c.origin.x, y: c.origin.y, width: c.side, height: c.side + DetailPlacement.captionHeight(layout, fonts: fonts))
                    return caption
                }
                let boxes = [placement.campaign, placement.card] + (code.map { [$0] } ?? [])
                #expect(!surface.textRuns.isEmpty)
                for run in surface.textRuns {
                    #expect(run.size >= 16, "\(size): \"\(run.text.prefix(30))\" at \(run.size) px, under the 16 px floor")
                    #expect(contains(screen, run.rect), "\(size) \(name) \(fonts.face.path): \"\(run.text.prefix(30))\" at \(run.rect) leaves the screen")
                    #expect(boxes.contains { contains($0.insetBy(-2), run.rect) },
                            "\(size) \(name): \"\(run.text.prefix(30))\" at \(run.rect) leaves its box")
                    // No wrapped line starts or ends with a space.
                    #expect(run.text.first != " " && run.text.last != " ", "\(size) \(name): \"\(run.text)\"")
                }
                // Nothing overlaps: the campaign, the card and the code (with its caption) are apart.
                #expect(!placement.campaign.intersects(placement.card), "\(size) \(name): \(placement.campaign) \(placement.card)")
                if let code {
                    let text = [placement.title.map { Rect(x: placement.titleOrigin.x, y: placement.titleOrigin.y, width: $0.width(fonts: fonts), height: $0.height) },
                                Rect(x: placement.bodyOrigin.x, y: placement.bodyOrigin.y, width: placement.body.width(fonts: fonts), height: placement.body.height)]
                    for part in [placement.card, placement.picture] + text {
                        if let part { #expect(!code.intersects(part), "\(size) \(name): code \(code) on \(part)") }
                    }
                }
                // The body never under the grid's smallest size, which is never under 16 px.
                #expect(placement.body.size >= layout.minBodySize && layout.minBodySize >= DetailLayout.smallestBody)
                // Picture, title and text on one left grid line; the text no wider than a picture above it.
                if let picture = placement.picture {
                    #expect(picture.x == layout.area.x, "\(size) \(name): the picture at \(picture.x)")
                    if !layout.stacked, placement.titleOrigin.x == picture.x {
                        #expect(placement.body.width(fonts: fonts) <= picture.width, "\(size) \(name): text past the picture")
                    }
                }
                #expect(placement.bodyOrigin.x == placement.titleOrigin.x && placement.titleOrigin.x >= layout.area.x)
                // Landscape: both columns from one top line.
                // (Beside a picture, the picture's top and the card's come down to the title's ink.)
                if !layout.stacked {
                    let line = placement.picture.map { $0.y } ?? placement.campaign.y
                    #expect(line == placement.card.y, "\(size) \(name): tops \(line) \(placement.card.y)")
                }
                // The link's caption is whole and says what the code opens: its host, nothing cut.
                if let code = placement.code {
                    // The code belongs to the campaign: inside its column, clear of the card.
                    let box = Rect(x: code.origin.x, y: code.origin.y, width: code.side, height: code.side)
                    #expect(contains(placement.campaign.insetBy(-1), box) && !box.intersects(placement.card),
                            "\(size) \(name): code \(box) outside the campaign \(placement.campaign)")
                    if let label = scene.linkLabel {
                        // The feed's words, on one or two lines, cut with "…" only past them.
                        #expect(code.caption == [label])
                        #expect(surface.textRuns.contains { $0.text.count >= 4 && label.hasPrefix($0.text.replacing("…", with: "")) },
                                "\(size) \(name): no caption from \(label)")
                    } else {
                        #expect(code.caption.count == 2 && code.caption[0] == "扫码打开" && scene.linkURL?.contains(code.caption[1]) == true)
                        for line in code.caption {
                            #expect(surface.textRuns.contains { $0.text == line }, "\(size) \(name): caption \(line)")
                        }
                    }
                }
                try canvas.endFrame(snapshotPath: nil)
            }
            }
        }

        /// The campaign comes first: a portrait poster on a portrait screen at least half the
        /// screen's width, a short text whole at its full size, the QR code the layout's share
        /// of the short side whatever the link's length.
        @Test(arguments: [Size(width: 1080, height: 1920), Size(width: 480, height: 800), Size(width: 1920, height: 1080),
                          Size(width: 1280, height: 720), Size(width: 800, height: 480), Size(width: 3840, height: 2160)])
        func theCampaignComesFirst(_ size: Size) throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let poem = PoetryEntry(origin: "饮湖上初晴后雨", author: "苏轼", lines: ["水光潋滟晴方好，", "山色空蒙雨亦奇。", "欲把西湖比西子，", "淡妆浓抹总相宜。"],
                                   source: .bundled)
            let english = "Join us in the courtyard garden this weekend for guided walks, seasonal tea and a small market of local "
                + "growers. Walks start every hour from ten until four; bring comfortable shoes, and scan the code to reserve a place."
            let poster = DetailScene(campaignID: "p", title: "秋季大促：全场五折起", text: "十一月一日至十一月十五日，全场商品五折起。", imagePath: "/p.jpg",
                                     poetry: poem, spinnerPhase: nil, linkURL: "https://example.com/s")
            let placed = DetailPlacement(poster, screen: size, pictureSize: Size(width: 1080, height: 1620), fonts: fonts)
            let picture = try #require(placed.picture)
            if size.isPortrait {
                #expect(picture.width * 2 >= size.width, "\(size): the poster is \(picture.width) px wide")
                // With a long title and text too: the text gives way, not the poster.
                var long = poster
                long.title = "秋季大促：全场五折起，会员再享额外九五折优惠"
                long.text = "十一月一日至十一月十五日，全场商品五折起。会员凭会员卡再享九五折，满三百元赠精美礼品一份，数量有限，送完即止。"
                let kept = try #require(DetailPlacement(long, screen: size, pictureSize: Size(width: 1080, height: 1620), fonts: fonts).picture)
                #expect(kept.width * 2 >= size.width, "\(size): with a long text the poster is \(kept.width) px wide")
            }
            #expect(placed.body.size == placed.layout.bodySize && !placed.body.lines.joined().hasSuffix("…"), "\(size): \(placed.body.lines)")
            // A headline in two balanced lines, not a line and a widow.
            if let title = placed.title, title.lines.count == 2 {
                #expect(title.lines[1].count * 2 >= title.lines[0].count, "\(size): \(title.lines)")
            }
            // The card is as tall as its poem, not a fixed share: under a third of the screen.
            #expect(placed.card.height * 3 < size.height, "\(size): card \(placed.card)")
            // A long English text: whole at 1920x1080 and 1080x1920, cut nowhere with a Chinese "…".
            let photo = DetailScene(campaignID: "e", title: "Autumn Garden Weekend", text: english, imagePath: "/e.jpg", poetry: poem,
                                    spinnerPhase: nil, linkURL: "https://example.com/garden?utm_source=kiosk&utm_medium=screen&utm_campaign=autumn")
            let prose = DetailPlacement(photo, screen: size, pictureSize: Size(width: 1600, height: 1067), fonts: fonts)
            if size.shorterSide >= 1080 { #expect(!prose.body.lines.joined().hasSuffix("...") && !prose.body.lines.joined().hasSuffix("…")) }
            #expect(!prose.body.lines.joined().hasSuffix("…"), "\(size): a Latin cut ends with three full stops")
            // A Chinese text of 120 characters under a long title and a photo: whole at 1080p and up.
            let tea = DetailScene(campaignID: "t", title: "春茶上新：明前龙井与碧螺春限量到店，先到先得",
                                  text: "今年第一批明前龙井已经到店。茶汤清亮，豆香明显，适合慢慢喝。门店每天下午两点提供免费试饮，数量有限，先到先得。"
                                      + "我们还准备了碧螺春和白茶，欢迎品鉴。周末另有茶艺师现场冲泡，讲解茶叶的产地、采摘和制作工艺。",
                                  imagePath: "/t.jpg", poetry: poem, spinnerPhase: nil)
            let teaPlaced = DetailPlacement(tea, screen: size, pictureSize: Size(width: 1600, height: 1067), fonts: fonts)
            if size.shorterSide >= 1080 {
                #expect(!teaPlaced.body.lines.joined().hasSuffix("…") && teaPlaced.title?.lines.joined().hasSuffix("…") == false,
                        "\(size): \(teaPlaced.body.size) px, line \(teaPlaced.body.lineHeight), title \(teaPlaced.title?.height ?? 0) at \(teaPlaced.titleOrigin), body at \(teaPlaced.bodyOrigin) \(teaPlaced.body.lines) picture \(String(describing: teaPlaced.picture))")
            }
            // The code: the layout's share of the short side, less its modules' rounding, for a short and a long link alike.
            for placement in [placed, prose] {
                let code = try #require(placement.code)
                let share = size.shorterSide * LinkCodeSize.share / 100
                #expect(code.side <= share && code.side + code.code.size > share / 2, "\(size): code \(code.side) px of \(share)")
            }
        }

        /// The pill's label inside the pill at every size.
        @Test(arguments: sizes)
        func thePillsLabelIsInsideThePill(_ size: Size) throws {
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            let fonts = try FontBook.located(font: nil, memo: nil)
            let button = SkipButton(screen: size)
            let surface = canvas.beginFrame()
            let scene = SplashScene(campaignID: nil, imagePath: "/no/such/picture.jpg", countdown: 30, nextTickAt: 1)
            _ = try? SplashRenderer(surface: surface, fonts: fonts).draw(scene, button: button, fit: .fit, background: .black)
            let label = try #require(surface.textRuns.first)
            #expect(contains(button.frame.insetBy(button.edgeWidth), label.rect), "\(size): \(label.rect) in \(button.frame)")
            try canvas.endFrame(snapshotPath: nil)
        }

        /// Text before picture: a 31-character headline beside a square logo is never cut while
        /// the logo can give up room (to about a third of the column), and neither is its text.
        @Test(arguments: [Size(width: 1920, height: 1080), Size(width: 3840, height: 2160), Size(width: 1280, height: 720),
                          Size(width: 1080, height: 1920)])
        func aHeadlineIsNotCutBesideALogo(_ size: Size) throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let poem = PoetryEntry(origin: "出塞", lines: ["秦时明月汉时关，", "万里长征人未还。"], source: .bundled)
            let title = "二〇二六年度设计颁奖典礼暨秋季新品发布会：城市与自然的对话之夜"
            #expect(title.count == 31)
            let scene = DetailScene(campaignID: "l", title: title,
                                    text: "十二月十八日晚七点，城市美术馆一层大厅。现场公布年度设计奖项，并首次展出秋季新品。凭邀请函入场，名额有限。",
                                    imagePath: "/logo.png", poetry: poem, spinnerPhase: nil)
            let placed = DetailPlacement(scene, screen: size, pictureSize: Size(width: 1000, height: 1000), fonts: fonts)
            let lines = try #require(placed.title?.lines)
            #expect(lines.joined() == title, "\(size): \(lines)")
            #expect(!placed.body.lines.joined().hasSuffix("…"), "\(size): \(placed.body.lines)")
            let picture = try #require(placed.picture)
            #expect(picture.width * 4 >= placed.campaign.width, "\(size): the logo is \(picture) in \(placed.campaign)")
        }

        /// 跳过 stays where it is as the count goes from 12 to 1: only the digits' cells change.
        @Test(arguments: [Size(width: 1920, height: 1080), Size(width: 800, height: 480)])
        func thePillsWordDoesNotMoveAsItCounts(_ size: Size) throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let button = SkipButton(screen: size)
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            var words: [[RGBColor]] = []
            var place: Rect?
            for n in [12, 9, 1] {
                let surface = canvas.beginFrame()
                surface.clear(.black)
                SplashRenderer(surface: surface, fonts: fonts).drawPill(n, button: button)
                let word = try #require(surface.textRuns.first { $0.text.hasPrefix("跳过") })
                let dir = try temporaryFolder()
                try canvas.endFrame(snapshotPath: dir + "/p.png")
                let shot = try Snapshot(dir + "/p.png")
                // The same pixels where the first count drew the word.
                let r = place ?? word.rect
                place = r
                words.append((r.x..<r.maxX).flatMap { x in (r.y..<r.maxY).map { shot.color(x, $0) } })
                #expect(word.rect.x > button.frame.x && word.rect.maxX < button.frame.maxX)
            }
            #expect(words[0] == words[1] && words[1] == words[2], "\(size): 跳过 moved as the count went down")
        }

        /// The code's caption says what it opens: the link's host, without `www.`.
        @Test func theCodesCaptionSaysWhatItOpens() {
            #expect(DetailPlacement.caption(for: "https://www.shop.example.com/spring?from=kiosk") == ["扫码打开", "shop.example.com"])
            #expect(DetailPlacement.caption(for: "http://192.168.1.20:8080/menu") == ["扫码打开", "192.168.1.20"])
            #expect(DetailPlacement.caption(for: "mailto:hello@example.com") == ["扫码了解更多", "Scan for more"])
            #expect(DetailPlacement.caption(for: "https://shop.example.com/", label: "扫码预约座位") == ["扫码预约座位"])
        }

        /// A campaign's `linkLabel` is the code's caption, drawn at every size: on one line
        /// where it fits, else on two (cut with "…" only past them).
        @Test(arguments: sizes)
        func theFeedsLabelIsTheCodesCaption(_ size: Size) throws {
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            let fonts = try FontBook.located(font: nil, memo: nil)
            let label = "扫码预约周五夜市座位"
            let scene = DetailScene(campaignID: "l", title: "周五夜市", text: "东门广场，晚七点开市。", imagePath: nil,
                                    poetry: PoetryEntry(origin: "出塞", lines: ["秦时明月汉时关，", "万里长征人未还。"], source: .bundled),
                                    spinnerPhase: nil, linkURL: "https://shop.example.com/market", linkLabel: label)
            let surface = canvas.beginFrame()
            try DetailRenderer(surface: surface, fonts: fonts).draw(scene)
            let placement = DetailPlacement(scene, screen: size, pictureSize: nil, fonts: fonts)
            let code = try #require(placement.code)
            let height = DetailPlacement.captionHeight(placement.layout, fonts: fonts)
            let region = code.captionBeside ? Rect(x: code.origin.x + code.side, y: code.origin.y, width: code.captionRoom + code.side, height: code.side)
                : Rect(x: code.origin.x, y: code.origin.y + code.side, width: code.side, height: height)
            let caption = surface.textRuns.filter { region.insetBy(-2).contains(Point(x: $0.rect.x, y: $0.rect.y)) }
            #expect(caption.map(\.text).joined() == label, "\(size): \(caption.map(\.text))")
            #expect(!surface.textRuns.contains { $0.text.contains("shop.example.com") })
        }

        /// Bottoms side by side are aligned or clearly apart: the picture's, the QR code's (with
        /// its caption, where it is under it) and the card's are within 2 px of each other or a
        /// grid unit or more apart, for a logo, a photo and a poster, with a short and a long text,
        /// with and without a link, at every size — never a near miss of a few dozen pixels.
        @Test(arguments: [Size(width: 1920, height: 1080), Size(width: 1280, height: 720), Size(width: 800, height: 480),
                          Size(width: 3840, height: 2160), Size(width: 1080, height: 1920), Size(width: 480, height: 800),
                          Size(width: 720, height: 1280)])
        func bottomsAreAlignedOrClearlyApart(_ size: Size) throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let poem = PoetryEntry(origin: "相思", author: "王维", lines: ["红豆生南国，", "春来发几枝。", "愿君多采撷，", "此物最相思。"], source: .bundled)
            let texts = [("春茶", "今天到店。"),
                         ("秋季新品发布会", "十二月十八日晚七点，城市美术馆一层大厅。现场公布年度设计奖项，并首次展出秋季新品。凭邀请函入场，名额有限。"),
                         ("Autumn Garden Weekend", "Join us in the courtyard garden this weekend for guided walks, seasonal tea and a small "
                          + "market of local growers. Walks start every hour from ten until four.")]
            var misses: [String] = []
            for picture in [Size(width: 1000, height: 1000), Size(width: 1600, height: 900), Size(width: 1000, height: 1500), Size(width: 1600, height: 1000)] {
                for (title, text) in texts {
                    for (link, label) in [(nil, nil), ("https://shop.example.com/autumn", nil), ("https://shop.example.com/autumn", "扫码预约")]
                        as [(String?, String?)] {
                        let scene = DetailScene(campaignID: "a", title: title, text: text, imagePath: "/a.png", poetry: poem, spinnerPhase: nil,
                                                linkURL: link, linkLabel: label)
                        let placed = DetailPlacement(scene, screen: size, pictureSize: picture, fonts: fonts)
                        let unit = placed.layout.unit
                        var boxes: [(String, Rect)] = [("card", placed.card)]
                        if let p = placed.picture { boxes.append(("picture", p)) }
                        if let code = placed.code {
                            let foot = code.captionBeside ? code.origin.y + code.side
                                : DetailPlacement.captionFoot(of: code, grid: placed.layout, fonts: fonts)
                            boxes.append(("code", Rect(x: code.origin.x, y: code.origin.y, width: code.side, height: foot - code.origin.y)))
                        }
                        for (i, (a, ra)) in boxes.enumerated() {
                            for (b, rb) in boxes[(i + 1)...] where ra.maxX <= rb.x || rb.maxX <= ra.x {
                                let gap = abs(ra.maxY - rb.maxY)
                                if gap > 2 && gap < unit {
                                    misses.append("\(picture.width)x\(picture.height) \(title) link \(link != nil) label \(label ?? "-"): \(a) and \(b) bottoms \(gap) px apart (\(ra), \(rb))")
                                }
                            }
                        }
                    }
                }
            }
            #expect(misses.isEmpty, "\(size): \(misses.joined(separator: "; "))")
        }

        /// A Latin cut lands between words, never inside one ("will be seat..."), at any width.
        @Test func aLatinCutKeepsWholeWords() throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let text = "The doors open at seven and latecomers will be seated at the interval, when the lights come up at five o'clock or so."
            let words = Set(text.split(separator: " ").map(String.init))
            var cuts = 0
            for width in stride(from: 120, through: 420, by: 7) {
                let block = TextBlock(text, width: width, size: 20, maxLines: 2, fonts: fonts)
                let last = try #require(block.lines.last)
                guard last.hasSuffix("...") else { continue }
                cuts += 1
                for word in last.dropLast(3).split(separator: " ") {
                    #expect(words.contains(String(word)), "width \(width): \"\(last)\" cuts \"\(word)\"")
                }
            }
            #expect(cuts > 10)
        }

        /// A Chinese cut lands at the end of a phrase, its punctuation given up to the "…"
        /// ("茶汤清亮…"), never inside one ("豆香明…"), at any width.
        @Test func aChineseCutEndsAPhrase() throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let text = "今年第一批明前龙井已经到店，茶汤清亮，豆香明显，适合慢慢喝。门店每天下午两点提供免费试饮，数量有限，先到先得。"
            var cuts = 0
            var phrased = 0
            for width in stride(from: 200, through: 520, by: 11) {
                let block = TextBlock(text, width: width, size: 20, maxLines: 2, fonts: fonts)
                let last = try #require(block.lines.last)
                guard last.hasSuffix("…") else { continue }
                cuts += 1
                let shown = (block.lines.dropLast() + [String(last.dropLast())]).joined()
                #expect(text.hasPrefix(shown), "width \(width): \(block.lines)")
                // At a phrase's end, unless none ends in the line's second half.
                let after = text.dropFirst(shown.count).first
                let line = String(last.dropLast())
                let phraseInSecondHalf = line.dropFirst(line.count / 2).dropLast().contains { "，。".contains($0) }
                #expect(after.map { "，。".contains($0) } == true || !phraseInSecondHalf,
                        "width \(width): \"\(last)\" ends inside a phrase")
                if after.map({ "，。".contains($0) }) == true { phrased += 1 }
            }
            #expect(cuts > 10 && phrased * 2 > cuts, "\(phrased) of \(cuts) cuts at a phrase's end")
        }

        /// Chinese punctuation is squeezed: "）。" side by side leave no more than a third of an em
        /// between their inks (unsqueezed, the bracket's blank leaves 0.4 em in the kiosk's
        /// font), a pair of marks gives up a quarter of an em or more, and a mark at a line's end
        /// is measured to its ink, so that a line ending "到店。" fits where its blank would not.
        @Test func chinesePunctuationIsSqueezed() throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let size = 48
            let em = fonts.width(of: "文文", size: size) / 2
            #expect(fonts.width(of: "文）。文", size: size) <= em * 4 - em / 4, "\(fonts.width(of: "文）。文", size: size)) for em \(em)")
            #expect(fonts.width(of: "文（「文", size: size) <= em * 4 - em / 4, "\(fonts.width(of: "文（「文", size: size)) for em \(em)")
            #expect(fonts.width(of: "文文文", size: size) == em * 3, "no squeeze without marks")
            #expect(fonts.width(of: "文。", size: size) < em * 8 / 5, "the blank half at a line's end hangs")
            #expect(fonts.width(of: "文。文", size: size) >= em * 3 - 1, "a mark inside a line keeps its width")

            // The inks drawn: four glyphs apart, the bracket's and the full stop's close together.
            let mask = try #require(fonts.render("文）。文", size: size, bold: false))
            var inked: [Bool] = []
            for x in 0..<mask.width {
                inked.append((0..<mask.height).contains { mask.coverage[$0 * mask.stride + x] >= 96 })
            }
            var spans: [(Int, Int)] = []
            for (x, on) in inked.enumerated() where on {
                if let last = spans.last, last.1 == x - 1 { spans[spans.count - 1].1 = x } else { spans.append((x, x)) }
            }
            #expect(spans.count >= 4, "\(spans)")
            // The second span is the bracket's, the third the full stop's.
            if spans.count >= 4 {
                let gap = spans[2].0 - spans[1].1
                #expect(gap > 0 && gap * 3 <= em, "\(gap) px between ）and 。 at \(size) px: \(spans)")
            }

            // A line that ends in a mark is measured to its ink: thirteen characters and a full stop
            // fit in thirteen and a half ems.
            let lines = LineBreaker.wrap("今年第一批明前龙井已经到店。茶汤清亮。", maxWidth: em * 27 / 2 + 1,
                                         measure: { fonts.width(of: $0, size: size) })
            #expect(lines.first == "今年第一批明前龙井已经到店。", "\(lines)")
        }

        /// A one-colour picture of `picture` size under `title` and `text` on the detail screen of
        /// `size`, drawn in-process: the frame, the surface drawn on (its text runs) and the
        /// placement it followed.
        func drawnDetail(on size: Size, picture: Size, colour: RGBColor, title: String, text: String) throws
            -> (Snapshot, Surface, DetailPlacement) {
            let dir = try temporaryFolder()
            try writeImage(dir + "/p.png", width: picture.width, height: picture.height, bands: [colour])
            let fonts = try FontBook.located(font: nil, memo: nil)
            let poem = PoetryEntry(origin: "出塞", lines: ["秦时明月汉时关"], source: .bundled)
            let scene = DetailScene(campaignID: "p", title: title, text: text, imagePath: dir + "/p.png", poetry: poem, spinnerPhase: nil)
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            let surface = canvas.beginFrame()
            try DetailRenderer(surface: surface, fonts: fonts).draw(scene)
            try canvas.endFrame(snapshotPath: dir + "/shot.png")
            return (try Snapshot(dir + "/shot.png"), surface, DetailPlacement(scene, screen: size, pictureSize: picture, fonts: fonts))
        }

        /// Text beside a picture: the title's first line's ink stands on the picture's top line
        /// (within a pixel), not its line box, and the card's top is on that line too.
        @Test(arguments: [Size(width: 1920, height: 1080), Size(width: 1280, height: 720), Size(width: 3840, height: 2160)])
        func theTitlesInkStandsOnThePicturesTopLine(_ size: Size) throws {
            let (shot, surface, placed) = try drawnDetail(on: size, picture: Size(width: 1000, height: 1000),
                                                          colour: RGBColor(red: 200, green: 40, blue: 40), title: "年度设计颁奖典礼",
                                                          text: "十二月十八日晚七点，城市美术馆。")
            let picture = try #require(placed.picture)
            let run = try #require(surface.textRuns.first { $0.text.hasPrefix("年度") })
            #expect(run.rect.x > picture.maxX, "\(size): the title beside the picture")
            let inkTop = (run.rect.y..<run.rect.maxY).first { y in
                (run.rect.x..<run.rect.maxX).contains { shot.color($0, y).red < 120 }
            }
            #expect(inkTop.map { abs($0 - picture.y) <= 1 } == true, "\(size): ink at \(String(describing: inkTop)), picture at \(picture.y)")
            #expect(placed.card.y == picture.y)
        }

        /// A 650-character text with no link, English or Chinese, is whole at 1920x1080 and 4K
        /// beside a photo, and in portrait under it: the photo goes beside the text or gives up
        /// width, smaller, and the text shrinks (to two thirds of its size at most) rather than be cut.
        @Test(arguments: [(Size(width: 1920, height: 1080), false), (Size(width: 3840, height: 2160), false),
                          (Size(width: 1920, height: 1080), true), (Size(width: 3840, height: 2160), true),
                          (Size(width: 1080, height: 1920), true), (Size(width: 720, height: 1280), true)])
        func aLongTextIsWholeBesideASmallerPhoto(_ size: Size, chinese: Bool) throws {
            let fonts = try FontBook.located(font: nil, memo: nil)
            let words = chinese ? "今年第一批明前龙井已经到店。茶汤清亮，豆香明显，适合慢慢喝。门店每天下午两点提供免费试饮，数量有限，先到先得。"
                : "Join us in the courtyard garden this weekend for guided walks, seasonal tea and a small market of local growers."
            var text = ""
            while text.count + words.count + 1 <= 650 { text += (text.isEmpty || chinese ? "" : " ") + words }
            text += String(words.prefix(650 - text.count))
            #expect(text.count == 650)
            let poem = PoetryEntry(origin: "出塞", lines: ["秦时明月汉时关，", "万里长征人未还。"], source: .bundled)
            let scene = DetailScene(campaignID: "g", title: chinese ? "春茶上新：明前龙井与碧螺春限量到店" : "Autumn Garden Weekend", text: text,
                                    imagePath: "/photo.jpg", poetry: poem, spinnerPhase: nil)
            let placed = DetailPlacement(scene, screen: size, pictureSize: Size(width: 1600, height: 900), fonts: fonts)
            let said = placed.gaveUp(scene, fonts: fonts)
            #expect(!placed.body.lines.joined().hasSuffix("...") && !placed.body.lines.joined().hasSuffix("…")
                    && said.allSatisfy { !$0.contains("cut") }, "\(size): \(said)")
            #expect(placed.picture != nil)
            #expect(placed.body.size >= DetailLayout(screen: size).bodySize * 2 / 3)
        }

        /// A near-white picture keeps its edge on the detail screen: a hairline of black at 9 %
        /// just inside it (1 px; 2 px at 4K), the picture itself untouched inside that.
        @Test(arguments: [Size(width: 1920, height: 1080), Size(width: 480, height: 800), Size(width: 3840, height: 2160)])
        func aWhitePictureHasAnEdge(_ size: Size) throws {
            let (shot, _, placed) = try drawnDetail(on: size, picture: Size(width: 1600, height: 1000),
                                                    colour: RGBColor(red: 255, green: 255, blue: 255), title: "白", text: "白色的图片。")
            let picture = try #require(placed.picture)
            let line = DetailRenderer.edgeWidth(for: size)
            let edge = RGBColor(red: 232, green: 232, blue: 232)
            for (x, y) in [(picture.center.x, picture.y), (picture.center.x, picture.maxY - 1), (picture.x, picture.center.y),
                           (picture.maxX - 1, picture.center.y), (picture.center.x, picture.y + line - 1)] {
                #expect(shot.color(x, y).isClose(to: edge, tolerance: 2), "\(size): \(shot.color(x, y)) at \(x),\(y) of \(picture)")
            }
            #expect(shot.color(picture.center.x, picture.y + line) == RGBColor(red: 255, green: 255, blue: 255))
            #expect(shot.color(picture.x + line, picture.center.y) == RGBColor(red: 255, green: 255, blue: 255))
        }

        func contains(_ outer: Rect, _ inner: Rect) -> Bool {
            inner.x >= outer.x && inner.y >= outer.y && inner.maxX <= outer.maxX && inner.maxY <= outer.maxY
        }

        /// The operator library: every card's text inside its card, the facts inside their
        /// panel, whatever the reason and however long; the check mark is drawn, not a glyph.
        @Test(arguments: sizes)
        func theOperatorLibraryKeepsItsTextInItsCards(_ size: Size) throws {
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            let fonts = try FontBook.located(font: nil, memo: nil)
            let now = Date(timeIntervalSince1970: 1_796_000_000)
            let reasons: [String?] = [nil, "outside its hours", "waiting for the clock", "image refused: not an image: the data looks like an HTML page",
                                      "daily cap reached", "not started"]
            let tiles: [OperatorTile] = (0..<24).map { (i: Int) -> OperatorTile in
                OperatorTile(id: Campaign.ID("campaign-with-a-long-id-\(i)"), title: i % 2 == 0 ? "春茶上新：明前龙井 · Flash Deal of the week \(i)" : nil,
                             remaining: 9999, showLimit: 10000, ineligibility: reasons[i % reasons.count], isNext: i == 0, thumbnail: nil,
                             eligibleAgain: i % 3 == 1 ? now.addingTimeInterval(7 * 3600 + 300) : nil)
            }
            let info = OperatorInfo(thumbnails: [:], feedURL: "https://cdn.example.com/kiosk/" + String(repeating: "very-long-path/", count: 8) + "feed.json",
                                    lastSuccess: now, lastError: "could not resolve cdn.example.com (temporary failure in name resolution): check the name in the URL, the DNS settings and the network link",
                                    cacheBytes: 1 << 20, cacheCapBytes: 256 << 20, version: "0.1.0", driver: "dummy", renderer: "software",
                                    screen: "\(size)", deviceID: "lobby-3", warnings: ["campaigns[3].showTime: must be a whole number ≥ 0, got \"3\"; campaign \"b\" skipped"])
            let layout = OperatorLayout(screen: size)
            let scene = OperatorScene(tiles: tiles, info: info, nextSync: now, syncRunning: false, poetrySource: .bundled, poetryOrigin: "出塞",
                                      nextPoetry: now, now: now, page: 0, pageCount: 3)
            let surface = canvas.beginFrame()
            OperatorRenderer(surface: surface, fonts: fonts).draw(scene)
            let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
            let cards = (0..<min(tiles.count, layout.perPage)).map { layout.card($0) }
            for run in surface.textRuns {
                #expect(run.size >= 16, "\(size): \"\(run.text.prefix(30))\" at \(run.size) px, under the 16 px floor")
                #expect(contains(screen, run.rect), "\(size): \"\(run.text.prefix(30))\" at \(run.rect) leaves the screen")
                #expect(!run.text.contains("√") && !run.text.contains("✓"), "\(size): a check mark from a font: \(run.text)")
                // A run that starts in a card stays in it.
                if let card = cards.first(where: { $0.contains(Point(x: run.rect.x, y: run.rect.y)) }) {
                    #expect(contains(card, run.rect), "\(size): \"\(run.text.prefix(30))\" at \(run.rect) leaves its card \(card)")
                }
            }
            #expect(surface.textRuns.contains { $0.text == "eligible" })
            try canvas.endFrame(snapshotPath: nil)

            // A campaign's page: its rules wrap (a long link), its shows stop at the foot.
            var campaign = Campaign(id: tiles[1].id, picURL: URL(string: "https://cdn.example.com/a.jpg")!, showLimit: 10000,
                                    title: String(repeating: "春茶上新 Flash Deal ", count: 12), detail: String(repeating: "今年第一批明前龙井。", count: 80),
                                    startAt: now, endAt: now.addingTimeInterval(86_400 * 30))
            campaign.linkURL = URL(string: "https://shop.example.com/" + String(repeating: "spring-tea/", count: 12) + "?from=kiosk")
            campaign.hours = [DailyWindow("09:00-12:00")!, DailyWindow("22:00-02:00")!]
            let shows = (0..<20).map { ShowRecord(row: Int64($0), showID: "s\($0)", campaignID: campaign.id, shownAt: now, endedBy: .by(.timeout),
                                                  seconds: 3) }
            var page = scene
            page.campaignPage = OperatorCampaignPage(tile: tiles[1], campaign: campaign, shows: shows)
            let again = canvas.beginFrame()
            OperatorRenderer(surface: again, fonts: fonts).draw(page)
            for run in again.textRuns {
                #expect(run.size >= 16, "\(size): \"\(run.text.prefix(30))\" at \(run.size) px, under the 16 px floor")
                #expect(contains(screen, run.rect), "\(size) page: \"\(run.text.prefix(30))\" at \(run.rect) leaves the screen")
            }
            #expect(again.textRuns.contains { $0.text.hasPrefix("window: ") && $0.text.contains("(UTC") }, "one human time format")
            try canvas.endFrame(snapshotPath: nil)
        }
    }
}
