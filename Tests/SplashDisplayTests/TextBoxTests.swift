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
                let (code, module) = DetailRenderer.linkCode(scene.linkURL, screen: size)
                let layout = DetailLayout(screen: size, linkSide: code.map { $0.size * module })
                // The card keeps a readable height, whatever the link.
                #expect(layout.card.height >= size.shorterSide / 5, "\(size) \(name): the card is \(layout.card.height) px tall")
                let screen = Rect(x: 0, y: 0, width: size.width, height: size.height).insetBy(max(4, layout.unit / 2))
                var main = layout.main
                if let link = layout.link, layout.stacked { main = Rect(x: main.x, y: main.y, width: main.width, height: link.maxY - main.y) }
                let boxes = [main, layout.card] + (layout.link.map { [$0] } ?? [])
                #expect(!surface.textRuns.isEmpty)
                for run in surface.textRuns {
                    #expect(contains(screen, run.rect), "\(size) \(name) \(fonts.face.path): \"\(run.text.prefix(30))\" at \(run.rect) leaves the screen")
                    #expect(boxes.contains { contains($0.insetBy(-2), run.rect) },
                            "\(size) \(name): \"\(run.text.prefix(30))\" at \(run.rect) leaves its box")
                }
                // The link's caption is whole: both its lines, nothing cut.
                if code != nil {
                    for line in DetailRenderer.linkCaption {
                        #expect(surface.textRuns.contains { $0.text == line }, "\(size) \(name): caption \(line)")
                    }
                }
                try canvas.endFrame(snapshotPath: nil)
            }
            }
        }

        /// The pill's label inside the pill at every size.
        @Test(arguments: sizes)
        func thePillsLabelIsInsideThePill(_ size: Size) throws {
            let canvas = try Canvas(headless: true, size: size, rotation: .none)
            let fonts = try FontBook.located(font: nil, memo: nil)
            let button = SkipButton(screen: size, maxCountdown: 30)
            let surface = canvas.beginFrame()
            let scene = SplashScene(campaignID: nil, imagePath: "/no/such/picture.jpg", countdown: 30, nextTickAt: 1)
            _ = try? SplashRenderer(surface: surface, fonts: fonts).draw(scene, button: button, fit: .fit, background: .black)
            let label = try #require(surface.textRuns.first)
            #expect(contains(button.frame.insetBy(button.outlineWidth + button.ringWidth), label.rect), "\(size): \(label.rect) in \(button.frame)")
            try canvas.endFrame(snapshotPath: nil)
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
                OperatorTile(id: "campaign-with-a-long-id-\(i)", title: i % 2 == 0 ? "春茶上新：明前龙井 · Flash Deal of the week \(i)" : nil,
                             remaining: 9999, showTime: 10000, ineligibility: reasons[i % reasons.count], isNext: i == 0, thumbnail: nil,
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
            var campaign = Campaign(id: tiles[1].id, picURL: URL(string: "https://cdn.example.com/a.jpg")!, showTime: 10000,
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
                #expect(contains(screen, run.rect), "\(size) page: \"\(run.text.prefix(30))\" at \(run.rect) leaves the screen")
            }
            #expect(again.textRuns.contains { $0.text.hasPrefix("window: ") && $0.text.contains("(UTC") }, "one human time format")
            try canvas.endFrame(snapshotPath: nil)
        }
    }
}
