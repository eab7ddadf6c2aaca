import CSDL2
import Foundation
import SplashTestSupport
import SplashCore
@testable import SplashDisplay
import Testing

/// Text drawn in-process with the same canvas and fonts the kiosk uses.
@Suite(.serialized) struct TextRenderingTests {
    @Test func chineseTextProducesRealGlyphs() throws {
        let canvas = try Canvas(headless: true, size: Size(width: 400, height: 120), rotation: .none)
        let fonts = try FontBook(face: FontLocator.chineseFont())
        let dir = try temporaryFolder()
        var shots: [Picture] = []
        for text in ["跳", "过", "\u{E000}"] {
            canvas.beginFrame()
            canvas.clear(.white)
            canvas.drawText(text, at: Point(x: 10, y: 10), fonts: fonts, size: 80, color: .black)
            let path = dir + "/\(shots.count).png"
            try canvas.endFrame(snapshotPath: path)
            shots.append(try Picture(path))
        }
        let box = Rect(x: 0, y: 0, width: 120, height: 120)
        let inked = shots[0].count(in: box, differingFrom: .white)
        #expect(inked > 300, "跳 drew \(inked) pixels")
        // Two different characters draw differently: they are glyphs, not the same missing-glyph box.
        #expect(shots[0].differences(from: shots[1], in: box) > 300)
        #expect(shots[0].differences(from: shots[2], in: box) > 300)
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
}
