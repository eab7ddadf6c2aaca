import CSDL2
import Foundation
import SplashCore
@testable import SplashDisplay
import Testing

/// Pictures scaled down a band at a time come out as the whole scaled at once would.
@Suite struct DecodedPictureTests {
    /// An RGB24 picture (as SDL_image decodes a JPEG) with detail in both directions.
    func pattern(width: Int, height: Int) throws -> UnsafeMutablePointer<SDL_Surface> {
        let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 24,
                                                                   SDL_PIXELFORMAT_RGB24.rawValue))
        let pitch = Int(surface.pointee.pitch)
        let bytes = surface.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let p = bytes + y * pitch + x * 3
                p[0] = UInt8((x * 255) / max(1, width - 1))
                p[1] = UInt8((y * 255) / max(1, height - 1))
                p[2] = ((x / 7) + (y / 5)) % 2 == 0 ? 40 : 220
            }
        }
        return surface
    }

    func largestDifference(_ a: UnsafeMutablePointer<SDL_Surface>, _ b: UnsafeMutablePointer<SDL_Surface>) -> Int {
        var worst = 0
        let pa = a.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        let pb = b.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<Int(a.pointee.h) {
            for i in 0..<Int(a.pointee.w) * 4 {
                let offset = y * Int(a.pointee.pitch) + i
                worst = max(worst, abs(Int(pa[offset]) - Int(pb[offset])))
            }
        }
        return worst
    }

    @Test(arguments: [(3840, 2160, 1920, 1080), (1000, 750, 640, 480), (1201, 799, 300, 199)])
    func bandsMatchTheWhole(_ sizes: (Int, Int, Int, Int)) throws {
        let (w, h, tw, th) = sizes
        let source = try pattern(width: w, height: h)
        defer { SDL_FreeSurface(source) }
        let format = try #require(SDL_AllocFormat(SDL_PIXELFORMAT_RGB888.rawValue))
        defer { SDL_FreeFormat(format) }

        let banded = try #require(DecodedPicture.downscale(source, to: Size(width: tw, height: th), format: format))
        defer { SDL_FreeSurface(banded) }
        #expect(banded.pointee.w == Int32(tw) && banded.pointee.h == Int32(th))

        // The reference: the whole picture converted, then scaled in one go.
        let whole = try #require(SDL_ConvertSurface(source, format, 0))
        defer { SDL_FreeSurface(whole) }
        let reference = try #require(SDL_CreateRGBSurfaceWithFormat(0, Int32(tw), Int32(th), 32, format.pointee.format))
        defer { SDL_FreeSurface(reference) }
        var all = SDL_Rect(x: 0, y: 0, w: Int32(w), h: Int32(h))
        var out = SDL_Rect(x: 0, y: 0, w: Int32(tw), h: Int32(th))
        #expect(SDL_SoftStretchLinear(whole, &all, reference, &out) == 0)

        #expect(largestDifference(banded, reference) <= 2)
    }

    @Test func aPictureIsNeverScaledUpHere() throws {
        let source = try pattern(width: 100, height: 50)
        defer { SDL_FreeSurface(source) }
        let format = try #require(SDL_AllocFormat(SDL_PIXELFORMAT_RGB888.rawValue))
        defer { SDL_FreeFormat(format) }
        #expect(DecodedPicture.downscale(source, to: Size(width: 200, height: 100), format: format) == nil)
    }
}
