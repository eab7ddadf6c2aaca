import FoundationEssentials

/// Rules of the hidden gesture and of the view's life.
public enum OperatorGesture {
    /// How long a press in the corner must last.
    public static let holdSeconds: Seconds = 3
    /// The view closes after this long without input.
    public static let idleSeconds: Seconds = 30

    /// How far across a finger or the mouse must move to turn the page: 6 % of the width,
    /// at least 40 px.
    public static func swipeDistance(on screen: Size) -> Int { max(40, screen.width * 6 / 100) }

    /// The top-left corner where a long press opens the view: a square of 8 % of the
    /// shorter side, at least 80 px.
    public static func corner(on screen: Size) -> Rect {
        let side = max(80, screen.shorterSide * 8 / 100)
        return Rect(x: 0, y: 0, width: side, height: side)
    }
}
