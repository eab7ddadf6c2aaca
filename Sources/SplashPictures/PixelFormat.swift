/// How decoded pixels are laid out in memory: the two layouts the decoders write, both
/// of which pixman and TurboJPEG take as they are.
public enum PixelFormat: Equatable, Sendable {
    /// Three bytes a pixel: blue, green, red (an opaque picture: a quarter less to hold).
    case bgr24
    /// Four bytes a pixel: blue, green, red, alpha (a PNG with transparency).
    case bgra32

    /// Bytes a pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .bgr24: return 3
        case .bgra32: return 4
        }
    }
}
