import CSDL2
import Foundation
import SplashTestSupport
@testable import SplashCore
@testable import SplashDisplay
import Testing

extension InProcessCanvasTests {
    /// A countdown tick redraws the pill alone, over what was kept from under it: the frame
    /// must be the one a whole redraw makes, with the picture already let go.
    @Suite struct PillTickTests {
        @Test(arguments: ["window", "console"])
        func aTickOverTheKeptPixelsIsTheWholeFrame(_ kind: String) throws {
            let dir = try temporaryFolder()
            let size = Size(width: 1280, height: 720)
            try writeNoisePNG(dir + "/noise.png", width: 1280, height: 720, seed: 11)
            let fonts = try FontBook(face: FontLocator.chineseFont())
            let button = SkipButton(screen: size)
            func canvas() throws -> Canvas {
                kind == "window" ? try Canvas(headless: true, size: size, rotation: .none)
                    : try Canvas(consoleFrame: size, output: nil, rotation: .none)
            }
            let splash = SplashScene(campaignID: "a", imagePath: dir + "/noise.png", countdown: 5, nextTickAt: 1)

            let ticking = try canvas()
            var kept = false
            try SplashRenderer(surface: ticking.beginFrame(), fonts: fonts)
                .draw(splash, button: button, fit: .fill, background: .black) {
                    kept = ticking.keepUnder(button.frame, key: "k")
                }
            try ticking.endFrame(snapshotPath: dir + "/five.png")
            #expect(kept)
            ticking.releasePictures(except: [])
            #expect(ticking.shelf.decoded.isEmpty)
            let surface = ticking.beginFrame()
            #expect(!ticking.restoreUnder(button.frame, key: "another picture"))
            #expect(ticking.restoreUnder(button.frame, key: "k"))
            SplashRenderer(surface: surface, fonts: fonts).drawPill(4, button: button)
            try ticking.endFrame(snapshotPath: dir + "/tick.png", damage: button.frame)

            let whole = try canvas()
            var four = splash
            four.countdown = 4
            try SplashRenderer(surface: whole.beginFrame(), fonts: fonts)
                .draw(four, button: button, fit: .fill, background: .black)
            try whole.endFrame(snapshotPath: dir + "/four.png")

            let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
            let tick = try Snapshot(dir + "/tick.png"), redrawn = try Snapshot(dir + "/four.png")
            let before = try Snapshot(dir + "/five.png")
            #expect(tick.differences(from: redrawn, in: screen) == 0)
            // The pill did change, and nothing outside it did.
            #expect(tick.differences(from: before, in: button.frame) > 0)
            #expect(tick.differences(from: before, in: screen) == tick.differences(from: before, in: button.frame))
        }
    }
}
