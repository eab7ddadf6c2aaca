/// Memory a decoder writes a picture into: rows of `pitch` bytes, made by the one who
/// keeps the picture — a `Pixmap` in the display, a `PixelBuffer` elsewhere — so that
/// decoded pixels are never copied from one to the other.
public protocol PixelDestination {
    /// Room for a picture of this size and layout; throws when there is none.
    static func make(width: Int, height: Int, format: PixelFormat) throws -> Self
    /// The first byte of the first row.
    var pixels: UnsafeMutableRawPointer { get }
    /// Bytes from the start of one row to the next.
    var pitch: Int { get }
    /// Lets the memory go: a decode that failed after `make` calls it.
    func discard()
}
