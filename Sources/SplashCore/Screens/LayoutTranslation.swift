/// A point on one screen's layout carried to another's, for a kiosk that shows the same
/// scene on several screens, each laid out for its own size: the core lays out and hit-
/// tests on the first screen, so a tap on another is brought to the same place of the
/// first — on the pill when it was on that screen's pill (the pill sits in the top
/// right corner at a size of its own on each), elsewhere at the same share across and down.
public enum LayoutTranslation {
    /// `point` on a layout of `from` size, as a point on a layout of `to` size.
    public static func translate(_ point: Point, from: Size, to: Size) -> Point {
        translate(point, from: from, to: to) { SkipButton(screen: $0) }
    }

    /// `point` on a layout of `from` size, as a point on a layout of `to` size, the pill on
    /// each where `pill` puts it (`KioskState.skipButton(on:)`).
    public static func translate(_ point: Point, from: Size, to: Size, pill: (Size) -> SkipButton) -> Point {
        guard from != to, from.width > 0, from.height > 0 else { return point }
        let source = pill(from)
        if source.hitArea.contains(point) {
            let target = pill(to)
            let scale = Double(target.frame.height) / Double(source.frame.height)
            return Point(x: target.frame.x + Int((Double(point.x - source.frame.x) * scale).rounded()),
                         y: target.frame.y + Int((Double(point.y - source.frame.y) * scale).rounded()))
        }
        return Point(x: Int((Double(point.x) * Double(to.width) / Double(from.width)).rounded()),
                     y: Int((Double(point.y) * Double(to.height) / Double(from.height)).rounded()))
    }
}
