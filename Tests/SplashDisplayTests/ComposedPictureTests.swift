import CSDL2
import CSDL2Image
import Foundation
import SplashTestSupport
@testable import SplashCore
@testable import SplashDisplay
import Testing

extension InProcessCanvasTests {
    /// The first splash's frame composed ahead (`ComposedPicture`): the same pixels as the
    /// splash drawn the usual way, or nothing composed and the picture drawn as before.
    @Suite struct ComposedPictureTests {
        /// A JPEG of noise (detail everywhere: any pixel off shows) of `size`.
        func noiseJPEG(_ dir: String, _ name: String, _ size: Size) throws -> String {
            try writeNoisePNG(dir + "/\(name).png", width: size.width, height: size.height, seed: UInt64(size.width))
            let loaded = try #require(IMG_Load(dir + "/\(name).png"))
            defer { SDL_FreeSurface(loaded) }
            #expect(IMG_SaveJPG(loaded, dir + "/\(name).jpg", 90) == 0)
            return dir + "/\(name).jpg"
        }

        /// What the splash's picture looks like drawn the usual way on a canvas of `screen`.
        func drawn(_ path: String, on screen: Size, fit: ImageFit, background: RGBColor, to png: String) throws -> Snapshot {
            let canvas = try Canvas(headless: true, size: screen, rotation: .none)
            let surface = canvas.beginFrame()
            surface.clear(background)
            try surface.drawImage(path, in: Rect(x: 0, y: 0, width: screen.width, height: screen.height), mode: fit,
                                  clearing: SkipButton(screen: screen).corner)
            try canvas.endFrame(snapshotPath: png)
            return try Snapshot(png)
        }

        /// A picture of the screen's size, one twice as large (decoded at half size), one
        /// letterboxed on a colour and one moved down to leave the pill its bar: composed,
        /// each is pixel for pixel the frame drawn from the decoded picture, and the frame
        /// drawn on is the composed one.
        @Test(arguments: [(Size(width: 640, height: 360), Size(width: 640, height: 360), ImageFit.fill),
                          (Size(width: 1280, height: 720), Size(width: 640, height: 360), ImageFit.fit),
                          (Size(width: 640, height: 360), Size(width: 640, height: 480), ImageFit.fit),
                          (Size(width: 640, height: 360), Size(width: 640, height: 640), ImageFit.fit)])
        func aComposedFrameIsTheSplashDrawnTheUsualWay(picture: Size, screen: Size, fit: ImageFit) throws {
            let dir = try temporaryFolder()
            let path = try noiseJPEG(dir, "p", picture)
            let background = RGBColor(red: 200, green: 30, blue: 90)
            let expected = try drawn(path, on: screen, fit: fit, background: background, to: dir + "/usual.png")

            let composed = try #require(ComposedPicture(path: path, screen: screen, fit: fit, background: background))
            let canvas = try Canvas(headless: true, size: screen, rotation: .none)
            canvas.handOver(composed)
            #expect(canvas.prepare(path, fit: fit) == nil)
            // Another picture, fit or colour does not take it.
            #expect(!canvas.takeComposed(path, fit: fit == .fit ? .fill : .fit, background: background))
            canvas.handOver(composed)
            #expect(!canvas.takeComposed(path, fit: fit, background: .black))
            canvas.handOver(composed)
            #expect(canvas.takeComposed(path, fit: fit, background: background))
            canvas.beginFrame()
            try canvas.endFrame(snapshotPath: dir + "/composed.png")
            let whole = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
            #expect(try Snapshot(dir + "/composed.png").differences(from: expected, in: whole) == 0)
            // Used up: the next splash draws the usual way.
            #expect(!canvas.takeComposed(path, fit: fit, background: background))
        }

        /// What a splash would not draw as one decode is not composed: a PNG, a cropped
        /// picture, one drawn larger than any DCT scale of it, a file that is not a picture.
        @Test func whatIsNotOneDecodeIsNotComposed() throws {
            let dir = try temporaryFolder()
            let screen = Size(width: 640, height: 360)
            try writeImage(dir + "/a.png", width: 640, height: 360, bands: [green])
            #expect(ComposedPicture(path: dir + "/a.png", screen: screen, fit: .fit, background: .black) == nil)
            let square = try noiseJPEG(dir, "square", Size(width: 360, height: 360))
            #expect(ComposedPicture(path: square, screen: screen, fit: .fill, background: .black) == nil)
            let small = try noiseJPEG(dir, "small", Size(width: 320, height: 180))
            #expect(ComposedPicture(path: small, screen: screen, fit: .fit, background: .black) == nil)
            try "<html>".write(toFile: dir + "/page.jpg", atomically: true, encoding: .utf8)
            #expect(ComposedPicture(path: dir + "/page.jpg", screen: screen, fit: .fit, background: .black) == nil)
        }

        /// A JPEG cut short composes nothing; the frame that wants it decodes it the usual
        /// way, which says why it cannot be shown. A canvas of another size does not take a
        /// frame composed for the screen of last time.
        @Test func aPictureThatDoesNotComposeIsDrawnTheUsualWay() throws {
            let dir = try temporaryFolder()
            let screen = Size(width: 640, height: 360)
            let path = try noiseJPEG(dir, "cut", screen)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
            let composed = try #require(ComposedPicture(path: path, screen: screen, fit: .fit, background: .black))
            let canvas = try Canvas(headless: true, size: screen, rotation: .none)
            canvas.handOver(composed)
            let problem = try #require(canvas.prepare(path, fit: .fit))
            #expect(problem.reason.contains("premature end") || problem.reason.lowercased().contains("jpeg"), "\(problem.reason)")
            #expect(!canvas.takeComposed(path, fit: .fit, background: .black))

            let whole = try noiseJPEG(dir, "whole", screen)
            let larger = try Canvas(headless: true, size: Size(width: 800, height: 450), rotation: .none)
            larger.handOver(try #require(ComposedPicture(path: whole, screen: screen, fit: .fit, background: .black)))
            #expect(!larger.takeComposed(whole, fit: .fit, background: .black))
        }
    }
}

extension InProcessCanvasTests {
    /// The pill's label drawn ahead on another thread (`FontBook.warmUp`).
    @Suite struct FontWarmUpTests {
        /// Text drawn while, and after, the book draws ahead is the text drawn without it:
        /// every glyph's coverage the same, whatever was asked during the warm-up.
        @Test func textDrawnAheadChangesNoPixel() throws {
            let face = try FontLocator.chineseFont()
            let plain = try FontBook(face: face)
            let warmed = try FontBook(face: face)
            warmed.warmUp(SkipButton.label(1234567890), size: 40)
            // Asked at once: it waits for the warm-up, then answers as the other book does.
            #expect(warmed.width(of: "跳过 7", size: 40) == plain.width(of: "跳过 7", size: 40))
            for text in ["跳过 3", "跳过 12", "扫码了解更多"] {
                let a = try #require(plain.render(text, size: 40, bold: false))
                let b = try #require(warmed.render(text, size: 40, bold: false))
                #expect(a.width == b.width && a.height == b.height && a.coverage == b.coverage, "\(text)")
                #expect(a.coverage.contains { $0 > 200 }, "\(text) drew no ink")
            }
        }
    }
}
