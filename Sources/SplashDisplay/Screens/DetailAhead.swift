import SplashCore

/// The detail screen a splash hands over to, drawn ahead off the screen while the splash
/// counts down, so that a tap shows it at the cost of one copy. It is drawn again when
/// what it would show changes (a poem arrives) and dropped when there is none to come.
final class DetailAhead {
    private var ready: (scene: DetailScene, size: Size, frame: Canvas.PreparedFrame, failure: DrawFailure?)?

    /// Has `detail` at `size` drawn ahead by `draw` (on a surface of its own that `canvas`
    /// makes), unless it already is; nil drops what was drawn.
    func prepare(_ detail: DetailScene?, size: Size, on canvas: Canvas, draw: (Surface) -> DrawFailure?) {
        guard let detail else {
            ready = nil
            return
        }
        if let ready, ready.scene == detail, ready.size == size { return }
        ready = nil
        var failure: DrawFailure?
        if let frame = canvas.prepareFrame({ failure = draw($0) }) {
            ready = (detail, size, frame, failure)
        }
    }

    /// Copies the frame drawn ahead for `detail` at `size` onto `canvas`; false when there
    /// is none that fits (then the caller draws it). Either way it is used up.
    func show(_ detail: DetailScene, size: Size, on canvas: Canvas) -> (shown: Bool, failure: DrawFailure?) {
        defer { ready = nil }
        guard let ready, ready.scene == detail, ready.size == size, canvas.draw(ready.frame) else { return (false, nil) }
        return (true, ready.failure)
    }
}
