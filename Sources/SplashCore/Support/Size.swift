/// A width and height in pixels.
public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Pixels from left to right.
    public var width: Int
    /// Pixels from top to bottom.
    public var height: Int

    /// The size `width` pixels across and `height` down.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The shorter of the two sides.
    public var shorterSide: Int { min(width, height) }

    /// Whether the size is taller than it is wide.
    public var isPortrait: Bool { height > width }

    /// `WxH`, the form `--size` takes.
    public var description: String { "\(width)x\(height)" }
}
