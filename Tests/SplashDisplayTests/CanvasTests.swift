import CSDL2
import CSDL2Image
import Foundation
import SplashFonts
import SplashTestSupport
@testable import SplashCore
@testable import SplashDisplay
import Testing

extension InProcessCanvasTests {
    /// Drawing in-process with the same canvas and fonts the kiosk uses (one suite, run in
    /// order: SDL's video state is global).
    @Suite struct CanvasTests {
        @Test func chineseTextProducesRealGlyphs() throws {
            let canvas = try Canvas(headless: true, size: Size(width: 400, height: 120), rotation: .none)
            let fonts = try FontBook(face: FontLocator.chineseFont())
            let dir = try temporaryFolder()
            var shots: [Snapshot] = []
            for text in ["跳", "过", "\u{E000}"] {
                let surface = canvas.beginFrame()
                surface.clear(.white)
                surface.drawText(text, at: Point(x: 10, y: 10), fonts: fonts, size: 80, color: .black)
                let path = dir + "/\(shots.count).png"
                try canvas.endFrame(snapshotPath: path)
                shots.append(try Snapshot(path))
            }
            let box = Rect(x: 0, y: 0, width: 120, height: 120)
            let inked = shots[0].count(in: box, differingFrom: .white)
            #expect(inked > 300, "跳 drew \(inked) pixels")
            // Two different characters draw differently: they are glyphs, not the same missing-glyph box.
            #expect(shots[0].differences(from: shots[1], in: box) > 300)
            #expect(shots[0].differences(from: shots[2], in: box) > 300)
        }

        /// "Bold" is a bold face of its own or nothing: a family of one weight (WenQuanYi Micro
        /// Hei) draws its bold text as regular, never emboldened by FreeType, which fills the
        /// counters of 口; a family with a bold face (Noto Sans CJK) draws with that face.
        @Test func boldIsARealWeightNeverASmear() throws {
            let canvas = try Canvas(headless: true, size: Size(width: 400, height: 120), rotation: .none)
            let wqy = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
            var books: [(FontBook, Bool)] = []
            if FileManager.default.fileExists(atPath: wqy) {
                let face = FontFace(path: wqy)
                #expect(FontLocator.boldFace(of: face) == nil, "one weight: no bold face")
                books.append((try FontBook(face: face, bold: FontLocator.boldFace(of: face)), false))
            }
            let noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
            if FileManager.default.fileExists(atPath: noto) {
                let bold = try #require(FontLocator.boldFace(of: FontFace(path: noto, index: 2)), "Noto Sans CJK has a bold face")
                #expect(bold.path.hasSuffix("NotoSansCJK-Bold.ttc"))
                books.append((try FontBook(face: FontFace(path: noto, index: 2), bold: bold), true))
            }
            #expect(!books.isEmpty, "a Chinese font is installed (fonts-wqy-microhei)")
            let dir = try temporaryFolder()
            for (index, (fonts, hasBold)) in books.enumerated() {
                var shots: [Snapshot] = []
                for bold in [false, true] {
                    let surface = canvas.beginFrame()
                    surface.clear(.white)
                    surface.drawText("咏柳 口", at: Point(x: 10, y: 10), fonts: fonts, size: 72, bold: bold, color: .black)
                    try canvas.endFrame(snapshotPath: dir + "/\(index)-\(bold).png")
                    shots.append(try Snapshot(dir + "/\(index)-\(bold).png"))
                }
                let box = Rect(x: 0, y: 0, width: 400, height: 120)
                if hasBold {
                    #expect(shots[0].differences(from: shots[1], in: box) > 200, "the bold face draws heavier")
                } else {
                    #expect(shots[0].differences(from: shots[1], in: box) == 0, "no bold face: bold is the regular face, not a smear")
                }
                // The counter of 口 stays open: its middle is paper, not ink.
                let regularWidth = fonts.width(of: "咏柳 ", size: 72, bold: hasBold)
                let mouth = Point(x: 10 + regularWidth + fonts.width(of: "口", size: 72, bold: hasBold) / 2,
                                  y: 10 + fonts.lineHeight(size: 72, bold: hasBold) / 2)
                #expect(shots[1].color(mouth.x, mouth.y).isClose(to: .white, tolerance: 40), "口 is filled in (\(index))")
            }
        }

        @Test func detailTextWrapsInsideItsColumn() throws {
            let fonts = try FontBook(face: FontLocator.chineseFont())
            let text = "今年第一批明前龙井已经到店。茶汤清亮，豆香明显，适合慢慢喝。Free tasting every afternoon at 2 pm."
            let block = TextBlock(text, width: 300, size: 24, fonts: fonts)
            #expect(block.lines.count > 2)
            #expect(block.lines.allSatisfy { fonts.width(of: $0, size: 24) <= 300 })
            #expect(block.lines.joined().replacingOccurrences(of: " ", with: "") == text.replacingOccurrences(of: " ", with: ""))
            #expect(!block.lines.contains { $0.hasPrefix("，") || $0.hasPrefix("。") })
        }

        @Test func aPreparedDetailFrameShowsWhatDrawingItWould() throws {
            let canvas = try Canvas(headless: true, size: Size(width: 960, height: 540), rotation: .none)
            let fonts = try FontBook(face: FontLocator.chineseFont())
            let dir = try temporaryFolder()
            try writeImage(dir + "/a.jpg", width: 1920, height: 1080, bands: [red, green, blue])
            // A translucent poem picture: drawn through a texture, which belongs to one renderer.
            try writeTranslucentPNG(dir + "/poem.png", width: 200, height: 200, color: blue, alpha: 100)
            let scene = DetailScene(campaignID: "a", title: "春茶上新", text: "今年第一批明前龙井已经到店。", imagePath: dir + "/a.jpg",
                                    poetry: PoetryEntry(origin: "江南春", lines: ["千里莺啼绿映红"], imagePath: dir + "/poem.png",
                                                        source: .bundled),
                                    spinnerPhase: nil)
            func draw(on surface: Surface) { #expect((try? DetailRenderer(surface: surface, fonts: fonts).draw(scene)) != nil) }

            draw(on: canvas.beginFrame())
            try canvas.endFrame(snapshotPath: dir + "/direct.png")
            canvas.releasePictures(except: [])

            // Something else on the screen while the detail is drawn off it.
            canvas.beginFrame().clear(.black)
            let frame = try #require(canvas.prepareFrame { draw(on: $0) })
            try canvas.endFrame(snapshotPath: dir + "/meanwhile.png")
            canvas.beginFrame()
            #expect(canvas.draw(frame))
            try canvas.endFrame(snapshotPath: dir + "/prepared.png")

            let whole = Rect(x: 0, y: 0, width: 960, height: 540)
            let direct = try Snapshot(dir + "/direct.png")
            #expect(direct.count(in: whole, differingFrom: .black) > 100_000)
            #expect(try Snapshot(dir + "/prepared.png").differences(from: direct, in: whole) == 0)
            #expect(try Snapshot(dir + "/meanwhile.png").count(in: whole, differingFrom: .black, by: 1) == 0)
        }

        @Test func aBigPictureLooksTheSameOnItsFirstAndLaterFrames() throws {
            // Drawn smaller the first time, it goes straight onto the frame and what is kept is
            // copied from there; the countdown's later frames draw that copy.
            // Letterboxed: 640x360 of picture between 60-pixel bars.
            let canvas = try Canvas(headless: true, size: Size(width: 640, height: 480), rotation: .none)
            let dir = try temporaryFolder()
            try writeImage(dir + "/big.jpg", width: 1920, height: 1080, bands: [red, green, blue])
            let screen = Rect(x: 0, y: 0, width: 640, height: 480)
            for n in 0..<2 {
                let surface = canvas.beginFrame()
                surface.clear(.black)
                try surface.drawImage(dir + "/big.jpg", in: screen, mode: .fit)
                try canvas.endFrame(snapshotPath: dir + "/\(n).png")
            }
            let first = try Snapshot(dir + "/0.png")
            #expect(first.color(320, 30).isClose(to: .black))
            #expect(first.color(320, 450).isClose(to: .black))
            #expect(first.color(100, 64).isClose(to: red, tolerance: 20), "\(first.color(100, 64))")
            #expect(first.color(320, 240).isClose(to: green, tolerance: 20))
            #expect(first.color(540, 415).isClose(to: blue, tolerance: 20))
            #expect(try Snapshot(dir + "/1.png").differences(from: first, in: screen) == 0)
        }

        /// Every mark the operator view draws is in the font: none comes out as an empty box.
        @Test func theOperatorViewsMarksAreInTheFont() throws {
            let fonts = try FontBook(face: FontLocator.chineseFont())
            for mark in [OperatorRenderer.problemMark, OperatorRenderer.nextMark] {
                #expect(fonts.hasGlyphs(for: mark), "\(mark)")
            }
        }

        /// The feed's size of a link's QR code is libqrencode's, at every version.
        @Test func theLinkCodeSizeIsLibqrencodes() throws {
            for bytes in [1, 14, 15, 100, 300, 412, 413, 1000, 2331] {
                let link = "https://a.example/" + String(repeating: "x", count: max(0, bytes - 18))
                #expect(LinkCodeSize.modules(for: link) == QRCode(link)?.size, "\(link.utf8.count) bytes")
            }
            #expect(LinkCodeSize.modules(for: String(repeating: "x", count: 2332)) == nil && QRCode(String(repeating: "x", count: 2332)) == nil)
        }

        /// A character the kiosk's font lacks (Arabic in a Chinese font) is drawn in an
        /// installed face that has it, found with fontconfig, instead of an empty box: the
        /// line is as wide as that face makes it, and as tall as the kiosk's own lines.
        @Test func charactersTheFontLacksAreDrawnInAFaceThatHasThem() throws {
            let fonts = try FontBook(face: FontLocator.chineseFont())
            let arabic = "مرحبا"
            #expect(!fonts.hasGlyphs(for: arabic))
            let other = try #require(GlyphFinder().face(for: 0x0645), "a font with Arabic (fonts-dejavu-core) is installed")
            #expect(other != fonts.face)
            let finder = GlyphFinder()
            #expect((arabic + " 欢迎").unicodeScalars.allSatisfy { fonts.hasGlyphs(for: String($0)) || finder.canDraw($0) })
            // Shaped from the right, as Arabic is written: its letters joined, so the word is
            // narrower than its letters set apart, and drawn in the other face.
            let arabicWidth = fonts.width(of: arabic, size: 40)
            let apart = arabic.map { fonts.width(of: String($0), size: 40) }.reduce(0, +)
            #expect(arabicWidth > 0 && arabicWidth < apart, "\(arabicWidth) joined, \(apart) apart")
            #expect(fonts.width(of: "欢迎" + arabic, size: 40) == fonts.width(of: "欢迎", size: 40) + arabicWidth)
            let line = try #require(fonts.render("欢迎" + arabic, size: 40, bold: false))
            #expect(line.width == fonts.width(of: "欢迎" + arabic, size: 40))
            // Ink on the Arabic side too.
            let inked = (0..<line.height).contains { row in
                (fonts.width(of: "欢迎", size: 40)..<line.width).contains { line.at($0, row) > 128 }
            }
            #expect(inked)
            // As tall as the kiosk's own lines at least, taller where the other face reaches further.
            #expect(line.height >= fonts.textHeight(size: 40))
            // No face has an Egyptian hieroglyph here: it stays with the kiosk's font, a box.
            #expect(!fonts.hasGlyphs(for: "𓀀") && finder.face(for: 0x13000) == nil)
        }

        /// The console draws every screen exactly as the window does: the same software
        /// renderer on a frame in the dumb buffers' format, upright and turned.
        @Test(arguments: [Rotation.none, .quarter])
        func theConsoleDrawsEveryScreenAsTheWindowDoes(rotation: Rotation) throws {
            let dir = try temporaryFolder()
            try writeImage(dir + "/a.jpg", width: 1920, height: 1080, bands: [red, green, blue])
            try writeTranslucentPNG(dir + "/poem.png", width: 200, height: 200, color: blue, alpha: 100)
            let fonts = try FontBook(face: FontLocator.chineseFont())
            let output = Size(width: 1024, height: 600)
            let detail = DetailScene(campaignID: "a", title: "春茶上新", text: "今年第一批明前龙井已经到店，欢迎品尝。",
                                     imagePath: dir + "/a.jpg",
                                     poetry: PoetryEntry(origin: "江南春", lines: ["千里莺啼绿映红", "水村山郭酒旗风"],
                                                         imagePath: dir + "/poem.png", source: .bundled),
                                     spinnerPhase: nil)
            func shots(_ canvas: Canvas, _ name: String) throws -> [Snapshot] {
                let layout = canvas.layoutSize
                let splash = SplashScene(campaignID: "a", imagePath: dir + "/a.jpg", countdown: 3, nextTickAt: 1)
                try SplashRenderer(surface: canvas.beginFrame(), fonts: fonts)
                    .draw(splash, button: SkipButton(screen: layout), fit: .fit, background: .black)
                try canvas.endFrame(snapshotPath: dir + "/\(name)-splash.png")
                try DetailRenderer(surface: canvas.beginFrame(), fonts: fonts).draw(detail)
                try canvas.endFrame(snapshotPath: dir + "/\(name)-detail.png")
                return [try Snapshot(dir + "/\(name)-splash.png"), try Snapshot(dir + "/\(name)-detail.png")]
            }
            let window = try shots(try Canvas(headless: true, size: output, rotation: rotation), "window")
            let console = try shots(try Canvas(consoleFrame: output, output: nil, rotation: rotation), "console")
            let whole = Rect(x: 0, y: 0, width: output.width, height: output.height)
            for (a, b) in zip(window, console) {
                #expect(a.width == output.width && b.width == output.width)
                #expect(a.count(in: whole, differingFrom: .black) > 10_000)
                #expect(a.differences(from: b, in: whole) == 0)
            }
        }

        /// A JPEG is decoded at about the size it is drawn at; drawn larger later (the splash
        /// after a small detail picture), it is decoded again, never blown up from the small one.
        @Test func aPictureDrawnLargerLaterIsDecodedAgainNotEnlarged() throws {
            let dir = try temporaryFolder()
            try writeNoisePNG(dir + "/noise.png", width: 1280, height: 720, seed: 7)
            let jpeg = dir + "/noise.jpg"
            let loaded = try #require(IMG_Load(dir + "/noise.png"))
            #expect(IMG_SaveJPG(loaded, jpeg, 95) == 0)
            SDL_FreeSurface(loaded)
            let screen = Rect(x: 0, y: 0, width: 1280, height: 720)

            let fresh = try Canvas(headless: true, size: Size(width: 1280, height: 720), rotation: .none)
            try fresh.beginFrame().drawImage(jpeg, in: screen, mode: .fill)
            try fresh.endFrame(snapshotPath: dir + "/fresh.png")

            let canvas = try Canvas(headless: true, size: Size(width: 1280, height: 720), rotation: .none)
            let small = canvas.beginFrame()
            small.clear(.black)
            try small.drawImage(jpeg, in: Rect(x: 0, y: 0, width: 160, height: 90), mode: .fill)
            try canvas.endFrame(snapshotPath: nil)
            try canvas.beginFrame().drawImage(jpeg, in: screen, mode: .fill)
            try canvas.endFrame(snapshotPath: dir + "/later.png")
            #expect(try Snapshot(dir + "/later.png").differences(from: Snapshot(dir + "/fresh.png"), in: screen) == 0)
        }

        @Test func aPictureDecodedAheadIsTheOneDrawn() throws {
            let canvas = try Canvas(headless: true, size: Size(width: 320, height: 180), rotation: .none)
            let dir = try temporaryFolder()
            try writeImage(dir + "/a.jpg", width: 320, height: 180, bands: [green])
            try writeImage(dir + "/b.jpg", width: 320, height: 180, bands: [blue])
            try "<html>".write(toFile: dir + "/page.jpg", atomically: true, encoding: .utf8)
            let ahead = PendingPicture(path: dir + "/a.jpg")
            canvas.handOver(ahead)
            canvas.handOver(PendingPicture(path: dir + "/b.jpg"))
            // Decoded green ahead of time, then the file turns blue: the frame shows the
            // picture decoded ahead, not the file as it is when the frame is drawn.
            ahead.wait()
            try writeImage(dir + "/a.jpg", width: 320, height: 180, bands: [blue])
            canvas.handOver(PendingPicture(path: dir + "/page.jpg"))
            let screen = Rect(x: 0, y: 0, width: 320, height: 180)
            let surface = canvas.beginFrame()
            try surface.drawImage(dir + "/a.jpg", in: screen, mode: .fill)
            try canvas.endFrame(snapshotPath: dir + "/a.png")
            #expect(try Snapshot(dir + "/a.png").color(160, 90).isClose(to: green, tolerance: 20))
            // One that fails to decode fails the same way as decoding it then would.
            #expect(throws: DisplayError.self) { try surface.drawImage(dir + "/page.jpg", in: screen, mode: .fill) }
            // One no frame asked for is let go with the pictures of the screen before.
            canvas.releasePictures(except: [dir + "/a.jpg"])
        }
    }
}
