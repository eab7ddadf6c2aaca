import CGIF
import Foundation
import SplashCore
import SplashPictures
@testable import SplashDisplay
import SplashTestSupport
import Testing

/// A GIF's poster is its first frame as giflib decodes it, put where its descriptor says on a
/// transparent canvas: interlaced rows in their places, its transparent colour transparent.
@Suite struct GIFPosterTests {
    /// Writes with giflib's encoder a 6×5 GIF whose first frame is 3×4 at (2, 1), interlaced:
    /// rows alternately red and green, the middle of row 1 the transparent colour (blue).
    func writeGIF(_ path: String) throws {
        var error: Int32 = 0
        let gif = try #require(EGifOpenFileName(path, false, &error))
        var colors = [GifColorType(Red: 255, Green: 0, Blue: 0), GifColorType(Red: 0, Green: 255, Blue: 0),
                      GifColorType(Red: 0, Green: 0, Blue: 255), GifColorType(Red: 0, Green: 0, Blue: 0)]
        let map = try #require(GifMakeMapObject(4, &colors))
        defer { GifFreeMapObject(map) }
        #expect(EGifPutScreenDesc(gif, 6, 5, 2, 0, map) == GIF_OK)
        var control: [UInt8] = [1, 10, 0, 2]  // transparent colour 2, 0.1 s
        #expect(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &control) == GIF_OK)
        #expect(EGifPutImageDesc(gif, 2, 1, 3, 4, true, nil) == GIF_OK)
        // Interlaced rows go in the order GIF stores them: 0, then 2 (fourth pass), then 1, 3.
        for row in [0, 2, 1, 3] {
            var line: [GifPixelType] = row % 2 == 0 ? [0, 0, 0] : [1, 2, 1]
            #expect(EGifPutLine(gif, &line, 3) == GIF_OK)
        }
        #expect(EGifCloseFile(gif, &error) == GIF_OK)
    }

    @Test func theFirstFrameLandsWhereItsDescriptorSaysWithItsTransparency() throws {
        let dir = try temporaryFolder()
        try writeGIF(dir + "/a.gif")
        let decoded = try ImageDecoder.pixmap(dir + "/a.gif")
        #expect(decoded.width == 6 && decoded.height == 5 && decoded.format == PixelFormat.bgra32)
        func pixel(_ x: Int, _ y: Int) -> UInt32 { decoded.pixmap.pixel(x: x, y: y) }
        let red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00
        for y in 0..<5 {
            for x in 0..<6 {
                let inFrame = (2..<5).contains(x) && (1..<5).contains(y)
                let row = y - 1
                let expected: UInt32 = !inFrame ? 0 : row % 2 == 0 ? red : x == 3 ? 0 : green
                #expect(pixel(x, y) == expected, "(\(x), \(y))")
            }
        }
    }
}
