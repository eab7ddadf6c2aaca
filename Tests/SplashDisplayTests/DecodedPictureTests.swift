import Foundation
import SplashCore
@testable import SplashDisplay
import Testing

/// A picture is drawn onto the frame from the pixels it was decoded into (24-bit, as the
/// decoders make an opaque one), scaled and converted in one pass; drawn smaller the first
/// time, it keeps only what it was drawn at.
@Suite struct DecodedPictureTests {
    /// A 24-bit picture with detail in both directions.
    func pattern(width: Int, height: Int) throws -> Pixmap {
        let picture = try #require(Pixmap(width: width, height: height, format: .rgb24))
        for y in 0..<height {
            let line = (picture.pixels + y * picture.pitch).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                line[x * 3] = ((x / 7) + (y / 5)) % 2 == 0 ? 40 : 220
                line[x * 3 + 1] = UInt8((y * 255) / max(1, height - 1))
                line[x * 3 + 2] = UInt8((x * 255) / max(1, width - 1))
            }
        }
        return picture
    }

    func largestDifference(_ a: Pixmap, _ b: Pixmap, in rect: Rect) -> Int {
        var worst = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for shift in [0, 8, 16] {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }

    @Test(arguments: [(3840, 2160, 1920, 1080), (1000, 750, 640, 480), (1201, 799, 300, 199)])
    func theWholePictureScaledOntoTheFrameIsTheConvertedPictureScaled(_ sizes: (Int, Int, Int, Int)) throws {
        let (w, h, tw, th) = sizes
        let frame = try #require(Pixmap(width: tw + 20, height: th + 10, format: .xrgb32))
        let target = Rect(x: 10, y: 5, width: tw, height: th)
        let picture = DecodedPicture(try pattern(width: w, height: h))
        picture.draw(Rect(x: 0, y: 0, width: w, height: h), to: target, on: frame)
        // Only what was drawn is held now.
        #expect(picture.pixmap.size == Size(width: tw, height: th))
        #expect(abs(picture.heldScale - Double(tw) / Double(w)) < 1e-9)

        // The reference: the picture converted to 32 bits first, then scaled.
        let converted = try #require(Pixmap(width: w, height: h, format: .xrgb32))
        converted.copy(try pattern(width: w, height: h))
        let reference = try #require(Pixmap(width: tw + 20, height: th + 10, format: .xrgb32))
        reference.draw(converted, from: converted.bounds, to: target)
        #expect(largestDifference(frame, reference, in: target) <= 2)
        // The original's colours, not another channel order.
        let corner = frame.pixel(x: target.maxX - 1, y: target.maxY - 1)
        #expect((corner >> 16) & 0xFF > 200 && (corner >> 8) & 0xFF > 200, "\(String(corner, radix: 16))")

        // Drawn again from what it holds: the same pixels, as a plain copy.
        let again = try #require(Pixmap(width: tw + 20, height: th + 10, format: .xrgb32))
        picture.draw(Rect(x: 0, y: 0, width: w, height: h), to: target, on: again)
        #expect(largestDifference(frame, again, in: target) == 0)
    }

    @Test func aTransparentPictureBlendsOverWhatIsThere() throws {
        let frame = try #require(Pixmap(width: 40, height: 40, format: .xrgb32))
        frame.fill(nil, RGBColor(red: 0, green: 0, blue: 255))
        let picture = try #require(Pixmap(width: 20, height: 20, format: .argb32))
        // Red at half alpha, straight as a decoder gives it.
        for y in 0..<20 {
            let line = (picture.pixels + y * picture.pitch).assumingMemoryBound(to: UInt8.self)
            for x in 0..<20 { (line[x * 4], line[x * 4 + 1], line[x * 4 + 2], line[x * 4 + 3]) = (0, 0, 255, 128) }
        }
        picture.premultiply()
        DecodedPicture(picture).draw(Rect(x: 0, y: 0, width: 20, height: 20), to: Rect(x: 0, y: 0, width: 40, height: 40),
                                     on: frame)
        let mid = frame.pixel(x: 20, y: 20)
        #expect(abs(Int((mid >> 16) & 0xFF) - 128) <= 2 && abs(Int(mid & 0xFF) - 127) <= 2, "\(String(mid, radix: 16))")
    }
}
