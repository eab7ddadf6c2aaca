import CTurboJPEG
import Foundation
import SplashCore
@testable import SplashPictures
@testable import SplashServices
import SplashTestSupport
import Testing

/// JPEGs are decoded scaled down in the decoder, to the smallest of its sizes at or above
/// the one asked for; PNGs and WebPs whole.
@Suite struct ScaledDecodeTests {
    @Test func aJPEGComesOutAtTheSmallestDecoderSizeAtOrAboveTheOneAsked() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/4k.jpg", width: 3840, height: 2160, bands: [red, green, blue])
        for (scale, width, height) in [(1.0, 3840, 2160), (0.5, 1920, 1080), (0.3, 1440, 810), (0.2, 960, 540),
                                       (0.01, 480, 270), (2.0, 3840, 2160)] {
            let decoded = try ImageDecoder.load(dir + "/4k.jpg", scale: scale, into: PixelBuffer.self)
            #expect(decoded.original == Size(width: 3840, height: 2160))
            #expect((decoded.pixels.width, decoded.pixels.height) == (width, height), "scale \(scale)")
            #expect(decoded.format == .bgr24)
            #expect(decoded.scale + 1e-9 >= min(1, scale))
            // The bands are where they were: red left, green middle, blue right.
            let (w, h) = (decoded.width, decoded.height)
            for (x, expected) in [(w / 6, red), (w / 2, green), (w * 5 / 6, blue)] {
                #expect(pixel(decoded.pixels, x, h / 2).isClose(to: expected, tolerance: 24), "scale \(scale) x \(x)")
            }
        }
    }

    /// A CMYK JPEG, as print designers export it (Adobe's inverted inks), is shown in its
    /// colours rather than refused; so is a YCCK one.
    @Test func aCMYKJPEGIsShownInItsColours() throws {
        let dir = try temporaryFolder()
        let (w, h) = (96, 64)
        // Left half red, right half blue, as Adobe stores them: 255 is no ink.
        var cmyk = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                let ink: [UInt8] = x < w / 2 ? [0, 255, 255, 0] : [255, 255, 0, 0]
                for k in 0..<4 { cmyk[i + k] = 255 - ink[k] }
            }
        }
        let tj = try #require(tjInitCompress())
        defer { tjDestroy(tj) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        #expect(tjCompress2(tj, cmyk, Int32(w), Int32(w * 4), Int32(h), Int32(TJPF_CMYK.rawValue), &jpeg, &size,
                            Int32(TJSAMP_444.rawValue), 95, 0) == 0)
        defer { tjFree(jpeg) }
        let data = Data(bytes: try #require(jpeg), count: Int(size))
        try data.write(to: URL(fileURLWithPath: dir + "/cmyk.jpg"))
        // What is written is YCCK with Adobe's marker (TurboJPEG's way with CMYK).
        let reader = try #require(tjInitDecompress())
        defer { tjDestroy(reader) }
        var header = (w: Int32(0), h: Int32(0), sub: Int32(0), space: Int32(0))
        _ = data.withUnsafeBytes { tjDecompressHeader3(reader, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), size,
                                                       &header.w, &header.h, &header.sub, &header.space) }
        #expect([Int32(TJCS_CMYK.rawValue), Int32(TJCS_YCCK.rawValue)].contains(header.space))
        let decoded = try ImageDecoder.load(dir + "/cmyk.jpg", scale: 1, into: PixelBuffer.self).pixels
        #expect(pixel(decoded, w / 4, h / 2).isClose(to: RGBColor(red: 255, green: 0, blue: 0), tolerance: 24),
                "\(pixel(decoded, w / 4, h / 2))")
        #expect(pixel(decoded, w * 3 / 4, h / 2).isClose(to: RGBColor(red: 0, green: 0, blue: 255), tolerance: 24),
                "\(pixel(decoded, w * 3 / 4, h / 2))")
        // And the sync's validator takes it, thumbnail and all.
        #expect(!(try ImageValidator.check(dir + "/cmyk.jpg")).thumbnail.isEmpty)
    }

    @Test func aPNGIsAlwaysWhole() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.png", width: 800, height: 600, bands: [red])
        let decoded = try ImageDecoder.load(dir + "/a.png", scale: 0.25, into: PixelBuffer.self)
        #expect((decoded.width, decoded.height) == (800, 600))
        #expect(decoded.scale == 1)
        #expect(decoded.format == .bgr24)
        #expect(pixel(decoded.pixels, 400, 300) == red)
    }

    /// A PNG with transparency keeps it (the display blends it); libpng reads it, not SDL,
    /// so the network process links no SDL. A cut PNG is refused, not half-decoded.
    @Test func aTransparentPNGKeepsItsAlphaAndACutOneIsRefused() throws {
        let dir = try temporaryFolder()
        try writeTranslucentPNG(dir + "/t.png", width: 64, height: 32, color: red, alpha: 128)
        let decoded = try ImageDecoder.load(dir + "/t.png", into: PixelBuffer.self)
        #expect(decoded.format == .bgra32 && decoded.pixels.pitch == 64 * 4)
        let alpha = decoded.pixels.pixels.assumingMemoryBound(to: UInt8.self)[3]
        #expect(alpha < 255, "alpha \(alpha)")
        let whole = try ImageValidator.check(dir + "/t.png")
        #expect(whole.thumbnail.starts(with: [0xFF, 0xD8]))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/t.png")))
        bytes = Array(bytes.prefix(bytes.count - 20))
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/cut.png"))
        #expect(throws: ImageError.self) { _ = try ImageDecoder.load(dir + "/cut.png", into: PixelBuffer.self) }
    }

    @Test func aThumbnailIsTheMeanOfWhatEachPixelCovers() throws {
        // A 4K picture of three bands: its thumbnail fits 320 px and keeps the bands' colours.
        let dir = try temporaryFolder()
        try writeImage(dir + "/4k.png", width: 3840, height: 2160, bands: [red, green, blue])
        let decoded = try ImageDecoder.load(dir + "/4k.png", into: PixelBuffer.self)
        let small = try Thumbnail.fitted(decoded.pixels)
        #expect((small.width, small.height) == (320, 180))
        #expect(pixel(small, 20, 90) == red && pixel(small, 160, 90) == green && pixel(small, 300, 90) == blue)
        // The band edges mix: a pixel that covers both sides is between them.
        let edge = pixel(small, 106, 90)
        #expect(edge.red > 0 && edge.green > 0, "\(edge)")
    }

    @Test func theValidatorChecksAWholeJPEGAtThumbnailSize() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/4k.jpg", width: 3840, height: 2160, bands: [red, green, blue])
        let checked = try ImageValidator.check(dir + "/4k.jpg")
        #expect((checked.header.width, checked.header.height) == (3840, 2160))
        #expect(checked.thumbnail.starts(with: [0xFF, 0xD8]))
        // Cut in the middle of its data (end marker put back), it is still refused.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/4k.jpg")))
        bytes = Array(bytes.prefix(bytes.count / 2)) + [0xFF, 0xD9]
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/cut.jpg"))
        #expect(throws: (any Error).self) { _ = try ImageValidator.check(dir + "/cut.jpg") }
    }

    /// A still WebP (libwebp's own encoder made it) is decoded whole by libwebp, its
    /// header read for the limits, its length checked against its RIFF header; an
    /// animated one is refused by name.
    @Test func aStillWebPIsDecodedAndCheckedAndAnAnimatedOneIsRefused() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.webp", width: 900, height: 300, bands: [red, green, blue])
        let header = try ImageHeader.read(fromFile: dir + "/a.webp")
        #expect(header == ImageHeader(kind: .webp, width: 900, height: 300))
        let decoded = try ImageDecoder.load(dir + "/a.webp", scale: 0.1, into: PixelBuffer.self)
        #expect((decoded.width, decoded.height) == (900, 300) && decoded.format == .bgr24)
        for (x, color) in [(150, red), (450, green), (750, blue)] {
            #expect(pixel(decoded.pixels, x, 150).isClose(to: color, tolerance: 24), "\(pixel(decoded.pixels, x, 150))")
        }
        let checked = try ImageValidator.check(dir + "/a.webp")
        #expect(checked.header.kind == .webp && checked.thumbnail.starts(with: [0xFF, 0xD8]))
        // Cut short, or with bytes after its end: refused, with what is wrong.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.webp")))
        try Data(bytes.prefix(bytes.count - 40)).write(to: URL(fileURLWithPath: dir + "/cut.webp"))
        #expect(throws: ImageError.truncated("WebP")) { _ = try ImageValidator.check(dir + "/cut.webp") }
        try Data(bytes + [0, 0, 0, 0]).write(to: URL(fileURLWithPath: dir + "/long.webp"))
        #expect(throws: ImageError.malformed("4 bytes after the end its header gives")) {
            _ = try ImageValidator.check(dir + "/long.webp")
        }
        // The extended header with the animation flag: refused before any decoding.
        var animated = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        animated += [0x02, 0, 0, 0] + [0x63, 0x00, 0x00, 0x63, 0x00, 0x00]
        #expect(throws: ImageError.animatedWebP) { _ = try ImageHeader.parse(animated) }
        #expect(ImageError.animatedWebP.localizedDescription.hasPrefix("animated WebP is not shown"))
        // A lossless one's 14-bit sizes, and a size beyond the limits.
        var lossless = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8L".utf8) + [5, 0, 0, 0, 0x2F]
        let bits = UInt32(8999) | UInt32(99) << 14
        lossless += [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24), 0, 0, 0, 0, 0]
        #expect(throws: ImageError.tooLarge(width: 9000, height: 100)) { _ = try ImageHeader.parse(lossless) }
    }

    func pixel(_ picture: PixelBuffer, _ x: Int, _ y: Int) -> RGBColor {
        let (b, g, r) = picture.color(x: x, y: y)
        return RGBColor(red: r, green: g, blue: b)
    }
}
