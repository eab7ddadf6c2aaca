/// How a frame lies in a slot of the media process's ring.
public enum FrameLayout: String, Equatable, Sendable {
    /// BGRA (SDL's ARGB8888), `stride` bytes a line: any size, with transparency (an
    /// animated GIF's frames, and a clip shown cropped).
    case bgra
    /// Planar YUV 4:2:0 (SDL's IYUV): the Y plane, `stride` bytes a line, then the U and V
    /// planes at half the stride and half the height — 12 bits a pixel rather than 32,
    /// turned into the screen's pixels by the display as it draws. Even sizes only.
    case i420

    /// The bytes of one slot of frames `height` lines high, `stride` bytes a line.
    public func slotBytes(stride: Int, height: Int) -> Int {
        switch self {
        case .bgra: return stride * height
        case .i420: return stride * height + 2 * (stride / 2) * (height / 2)
        }
    }

    /// The least stride a line `width` pixels wide needs.
    public func minimumStride(width: Int) -> Int {
        self == .bgra ? width * 4 : width
    }

    /// Whether frames `width`x`height` may lie this way.
    public func fits(width: Int, height: Int) -> Bool {
        self == .bgra || (width % 2 == 0 && height % 2 == 0)
    }
}
