/// A position in pixels, origin top-left.
public struct Point: Equatable, Hashable, Sendable {
    /// Pixels right from the left edge.
    public var x: Int
    /// Pixels down from the top.
    public var y: Int

    /// The point `x` pixels from the left and `y` from the top.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
