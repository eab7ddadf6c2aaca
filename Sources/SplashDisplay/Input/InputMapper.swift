import SplashCore

/// Maps the loop's events to kiosk actions: a finger touch, a mouse click and a key press
/// become the same `pressed`, `released` and `keyPressed` actions, in layout coordinates.
enum InputMapper {
    /// `pill` places the pill on each screen, to carry a touch on another screen's pill to the first's.
    static func meaning(of event: ShellEvent, screens: Screens, pill: (Size) -> SkipButton) -> InputMeaning {
        switch event {
        case .quit:
            return .quit
        case let .touch(down, x, y, screen):
            let p = point(x: x, y: y, screen: screen, screens: screens, pill: pill)
            return .action { down ? .pressed(p, $0) : .released(p, $0) }
        case let .click(down, x, y):
            let p = screens.first.layoutPoint(outputX: x, outputY: y)
            return .action { down ? .pressed(p, $0) : .released(p, $0) }
        case .key(let key):
            return .action { .keyPressed(key, $0) }
        case .resized:
            return .resized
        case .redraw:
            return .redraw
        case .wake:
            return .ignored
        }
    }

    /// Where a touch is on the first screen's layout, the core's: on the console, a touch
    /// on another screen (`screen`, 0 the first) is carried over from that screen's layout
    /// (`LayoutTranslation`).
    static func point(x: Double, y: Double, screen index: Int, screens: Screens, pill: (Size) -> SkipButton) -> Point {
        let canvas = screens.first
        guard index > 0, index <= screens.others.count else {
            return canvas.layoutPoint(normalizedX: x, normalizedY: y)
        }
        let screen = screens.others[index - 1]
        let p = screen.layoutPoint(normalizedX: x, normalizedY: y)
        return LayoutTranslation.translate(p, from: screen.layoutSize, to: canvas.layoutSize, pill: pill)
    }
}
