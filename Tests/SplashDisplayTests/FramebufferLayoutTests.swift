import Foundation
@testable import SplashDisplay
import Testing

/// Frames drawn as XRGB8888 packed into the layouts framebuffers have, as the kernel
/// describes them (`fb_var_screeninfo`'s bits per pixel and channel offsets and lengths).
@Suite struct FramebufferLayoutTests {
    func packed(_ pixels: [UInt32], _ layout: FramebufferLayout) -> [UInt8] {
        var out = [UInt8](repeating: 0xAA, count: pixels.count * layout.bytesPerPixel)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBytes { layout.pack(source.baseAddress!, into: $0.baseAddress!, count: pixels.count) }
        }
        return out
    }

    @Test func xrgb8888IsCopiedAsItIs() {
        #expect(packed([0x00FF_8040, 0x0012_3456], .xrgb8888) == [0x40, 0x80, 0xFF, 0x00, 0x56, 0x34, 0x12, 0x00])
    }

    @Test func rgb565AsSmallPanelsHaveIt() {
        // Red, green, blue, white and black, little endian.
        let words = stride(from: 0, to: 10, by: 2).map { i in
            packed([0xFF_0000, 0x00_FF00, 0x00_00FF, 0xFF_FFFF, 0], .rgb565)[i...].prefix(2)
        }.map { UInt16($0.first!) | UInt16($0.last!) << 8 }
        #expect(words == [0xF800, 0x07E0, 0x001F, 0xFFFF, 0x0000])
    }

    @Test func otherOrdersAndDepthsFollowTheKernelsOffsets() {
        // 24-bit BGR: blue in the highest byte.
        let bgr24 = FramebufferLayout(bitsPerPixel: 24, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
                                      blue: .init(offset: 16, length: 8))
        #expect(packed([0x0011_2233], bgr24) == [0x11, 0x22, 0x33])
        // 32-bit with red lowest (some ARM framebuffers).
        let xbgr = FramebufferLayout(bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
                                     blue: .init(offset: 16, length: 8))
        #expect(packed([0x00AA_BBCC], xbgr) == [0xAA, 0xBB, 0xCC, 0x00])
        #expect(bgr24.isSupported && xbgr.isSupported && FramebufferLayout.rgb565.isSupported)
        // A palette (8 bits) or a channel outside the pixel cannot be drawn on.
        let palette = FramebufferLayout(bitsPerPixel: 8, red: .init(offset: 0, length: 8), green: .init(offset: 0, length: 8),
                                        blue: .init(offset: 0, length: 8))
        let broken = FramebufferLayout(bitsPerPixel: 16, red: .init(offset: 12, length: 8), green: .init(offset: 5, length: 6),
                                       blue: .init(offset: 0, length: 5))
        #expect(!palette.isSupported && !broken.isSupported)
    }
}
