/// The point of a picture that must stay in view when it is cropped to cover a screen of
/// another shape (`fill`, or `fit` covering rather than leaving slivers): fractions of the
/// picture's width and height from its top-left corner, 0 to 1 each. Without one, a crop
/// keeps the picture's centre.
public struct FocusPoint: Equatable, Hashable, Sendable {
    /// From the left edge (0) to the right edge (1).
    public var x: Double
    /// From the top edge (0) to the bottom edge (1).
    public var y: Double

    /// The point at `x`, `y`; nil unless both are between 0 and 1.
    public init?(x: Double, y: Double) {
        guard (0...1).contains(x), (0...1).contains(y) else { return nil }
        self.x = x
        self.y = y
    }

    /// The centre, where a crop is made without a focus.
    public static let centre = FocusPoint(x: 0.5, y: 0.5)!

    /// `"0.5,0.2"`: how it is stored.
    public var text: String { "\(x),\(y)" }

    /// The point `text` writes; nil for anything else.
    public init?(text: String) {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
        self.init(x: x, y: y)
    }

    /// The offset of a window `window` long into a picture `whole` long along one axis, the
    /// window's middle as near the focus (`at`, a fraction) as the picture's edges let it be.
    static func offset(whole: Int, window: Int, at fraction: Double) -> Int {
        let wanted = Int((Double(whole) * fraction).rounded()) - window / 2
        return min(max(0, wanted), max(0, whole - window))
    }
}
