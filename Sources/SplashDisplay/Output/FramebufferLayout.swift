/// How a framebuffer lays out a pixel, as the kernel says (`fb_var_screeninfo`): its size
/// in bits and where red, green and blue are in it. Frames are drawn as XRGB8888 and
/// packed into this layout row by row: a plain copy where the layout is XRGB8888 already,
/// else each pixel's channels cut to their lengths and put at their offsets (RGB565 on
/// the small SPI panels, 24-bit and BGR orders elsewhere).
struct FramebufferLayout: Equatable {
    /// Where a channel is: its lowest bit's offset and its length in bits.
    struct Channel: Equatable {
        var offset: Int
        var length: Int
    }

    var bitsPerPixel: Int
    var red: Channel
    var green: Channel
    var blue: Channel

    /// XRGB8888, the layout frames are drawn in.
    static let xrgb8888 = FramebufferLayout(bitsPerPixel: 32, red: Channel(offset: 16, length: 8),
                                            green: Channel(offset: 8, length: 8), blue: Channel(offset: 0, length: 8))
    /// RGB565.
    static let rgb565 = FramebufferLayout(bitsPerPixel: 16, red: Channel(offset: 11, length: 5),
                                          green: Channel(offset: 5, length: 6), blue: Channel(offset: 0, length: 5))

    /// Bytes a pixel takes.
    var bytesPerPixel: Int { (bitsPerPixel + 7) / 8 }

    /// Whether frames can be drawn in it: 16, 24 or 32 bits with each channel inside the
    /// pixel and at most 8 bits long.
    var isSupported: Bool {
        [16, 24, 32].contains(bitsPerPixel) && [red, green, blue].allSatisfy {
            $0.length > 0 && $0.length <= 8 && $0.offset >= 0 && $0.offset + $0.length <= bitsPerPixel
        }
    }

    /// Packs `count` XRGB8888 pixels from `source` into `target` in this layout (little
    /// endian, as framebuffers on the machines the kiosk runs on are).
    func pack(_ source: UnsafePointer<UInt32>, into target: UnsafeMutableRawPointer, count: Int) {
        if self == Self.xrgb8888 {
            target.copyMemory(from: source, byteCount: count * 4)
            return
        }
        let bytes = target.assumingMemoryBound(to: UInt8.self)
        let width = bytesPerPixel
        for i in 0..<count {
            let p = source[i]
            let value = Self.place(UInt32((p >> 16) & 0xFF), red) | Self.place(UInt32((p >> 8) & 0xFF), green)
                | Self.place(UInt32(p & 0xFF), blue)
            for b in 0..<width { bytes[i * width + b] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(b))) }
        }
    }

    /// An 8-bit channel value cut to `channel`'s length and moved to its offset.
    private static func place(_ value: UInt32, _ channel: Channel) -> UInt32 {
        (value >> UInt32(8 - channel.length)) << UInt32(channel.offset)
    }
}
